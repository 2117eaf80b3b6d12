//go:build !goexperiment.jsonv2

// Command golden-go computes golden vectors for @kruise-ts/inplace-update with the Go libraries and
// types OpenKruise v1.9.0 uses (k8s.io/api and apimachinery v0.32.10, github.com/appscode/jsonpatch
// v1.0.1, and the apps/pub types of github.com/openkruise/kruise-api, whose InPlaceUpdateState is the
// same in v1.8.0 and v1.9.0). It reads one JSON object on stdin:
//
//	{"envHashes": [{"container": {...}, "labels": {...}, "annotations": {...}}],
//	 "states": [<state JSON>], "updateSpecs": [<UpdateSpec JSON>],
//	 "metadataPatches": [{"old": <ObjectMeta>, "new": <ObjectMeta>}],
//	 "revisionDiffs": [{"old": "<revision data>", "new": "<revision data>"}]}
//
// and prints the results in the same order under the same keys. The jsonv2 experiment is excluded
// because OpenKruise is built with the classic encoding/json.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

type input struct {
	EnvHashes       []envHashInput      `json:"envHashes"`
	States          []json.RawMessage   `json:"states"`
	UpdateSpecs     []json.RawMessage   `json:"updateSpecs"`
	MetadataPatches []metadataPatchPair `json:"metadataPatches"`
	RevisionDiffs   []revisionDiffPair  `json:"revisionDiffs"`
}

type output struct {
	EnvHashes       []uint64   `json:"envHashes"`
	States          []encoded  `json:"states"`
	UpdateSpecs     []encoded  `json:"updateSpecs"`
	MetadataPatches []encoded  `json:"metadataPatches"`
	RevisionDiffs   [][]diffOp `json:"revisionDiffs"`
	Errors          []string   `json:"errors,omitempty"`
}

// encoded is a value re-marshalled by Go, or the error Go's decoder returned for it.
type encoded struct {
	JSON  string `json:"json,omitempty"`
	Error string `json:"error,omitempty"`
}

func main() {
	raw, err := io.ReadAll(os.Stdin)
	if err != nil {
		fatal(err)
	}
	var in input
	if err := json.Unmarshal(raw, &in); err != nil {
		fatal(fmt.Errorf("stdin must be a JSON object of cases: %w", err))
	}
	out := output{
		EnvHashes:       make([]uint64, 0, len(in.EnvHashes)),
		States:          make([]encoded, 0, len(in.States)),
		UpdateSpecs:     make([]encoded, 0, len(in.UpdateSpecs)),
		MetadataPatches: make([]encoded, 0, len(in.MetadataPatches)),
		RevisionDiffs:   make([][]diffOp, 0, len(in.RevisionDiffs)),
	}
	for _, c := range in.EnvHashes {
		hash, err := envHash(c)
		if err != nil {
			out.Errors = append(out.Errors, err.Error())
		}
		out.EnvHashes = append(out.EnvHashes, hash)
	}
	for _, s := range in.States {
		out.States = append(out.States, roundTripState(s))
	}
	for _, s := range in.UpdateSpecs {
		out.UpdateSpecs = append(out.UpdateSpecs, roundTripUpdateSpec(s))
	}
	for _, p := range in.MetadataPatches {
		out.MetadataPatches = append(out.MetadataPatches, metadataPatch(p))
	}
	for _, d := range in.RevisionDiffs {
		ops, err := revisionDiff(d)
		if err != nil {
			out.Errors = append(out.Errors, err.Error())
		}
		out.RevisionDiffs = append(out.RevisionDiffs, ops)
	}
	printed, err := json.Marshal(out)
	if err != nil {
		fatal(err)
	}
	fmt.Println(string(printed))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "golden-go:", err)
	os.Exit(1)
}
