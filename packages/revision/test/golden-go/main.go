//go:build !goexperiment.jsonv2

// Command golden-go reads a JSON array of pod templates on stdin and prints, for each, the
// ControllerRevision data OpenKruise v1.9.0 would store for a CloneSet with that template and its hash
// for collisionCount 0 and 1:
//
//	[{"raw": "{\"spec\":{\"template\":{...}}}", "hashes": ["<hash for 0>", "<hash for 1>"]}, ...]
//
// or {"error": "..."} for a template Go cannot decode. With the argument `vct` it reads a JSON array of
// volumeClaimTemplates lists instead and prints their hashes (see vct.go); with `sts`, a JSON array of
// whole Advanced StatefulSets, and prints the same vectors for their revisions (see sts.go); with
// `sidecarset`, a JSON array of SidecarSets, and prints their sidecar hashes (see sidecarset.go). It repeats OpenKruise's steps
// (pkg/controller/cloneset/revision/cloneset_revision.go getPatch, k8s.io/kubernetes
// pkg/controller/history HashControllerRevision) with the libraries OpenKruise uses, so that the
// TypeScript port can be compared byte for byte. The jsonv2 experiment is excluded because OpenKruise
// is built with the classic encoding/json.
package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	kjson "sigs.k8s.io/json"
)

// cloneSet is the part of a CloneSet that reaches a revision.
type cloneSet struct {
	Spec struct {
		Template corev1.PodTemplateSpec `json:"template"`
	} `json:"spec"`
}

type vector struct {
	Raw    string    `json:"raw,omitempty"`
	Hashes [2]string `json:"hashes"`
	Error  string    `json:"error,omitempty"`
}

func main() {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	switch mode {
	case "vct":
		mapStdin("volumeClaimTemplates lists", volumeClaimTemplatesHash)
	case "sts":
		mapStdin("Advanced StatefulSets", statefulSetVector)
	case "sidecarset":
		mapStdin("SidecarSets", sidecarSetHashes)
	default:
		mapStdin("pod templates", golden)
	}
}

// mapStdin reads a JSON array on stdin and prints the JSON array of f of each element, in order.
func mapStdin[T any](what string, f func([]byte) T) {
	input, err := io.ReadAll(os.Stdin)
	if err != nil {
		fatal(err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(input, &items); err != nil {
		fatal(fmt.Errorf("stdin must be a JSON array of %s: %w", what, err))
	}
	out := make([]T, 0, len(items))
	for _, item := range items {
		out = append(out, f(item))
	}
	encoded, err := json.Marshal(out)
	if err != nil {
		fatal(err)
	}
	fmt.Println(string(encoded))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "golden-go:", err)
	os.Exit(1)
}

func golden(template []byte) vector {
	return vectorOf(revisionData(template))
}

// vectorOf is the vector of revision data: the data and its hashes for collisionCount 0 and 1, or the error.
func vectorOf(raw []byte, err error) vector {
	if err != nil {
		return vector{Error: err.Error()}
	}
	return vector{Raw: string(raw), Hashes: [2]string{hash(raw, 0), hash(raw, 1)}}
}

// revisionData decodes the template as the controller's cache does (case-sensitive, unknown fields
// dropped), encodes the typed object as the legacy codec does (encoding/json), and then follows getPatch:
// decode into a generic map, mark the template `$patch: replace`, keep only spec.template, marshal.
func revisionData(template []byte) ([]byte, error) {
	stored := append(append([]byte(`{"spec":{"template":`), template...), '}', '}')
	return typedTemplatePatch(stored, &cloneSet{})
}

// typedTemplatePatch is getPatch, the same for CloneSet and Advanced StatefulSet: the stored object
// decoded into the typed object `into` as the controller's cache decodes it, encoded as the legacy
// codec does, then as a generic map with the template marked `$patch: replace`, only spec.template kept.
func typedTemplatePatch(stored []byte, into any) ([]byte, error) {
	if err := kjson.UnmarshalCaseSensitivePreserveInts(stored, into); err != nil {
		return nil, err
	}
	encoded, err := json.Marshal(into)
	if err != nil {
		return nil, err
	}
	var generic map[string]interface{}
	if err := json.Unmarshal(encoded, &generic); err != nil {
		return nil, err
	}
	spec := generic["spec"].(map[string]interface{})
	templateMap := spec["template"].(map[string]interface{})
	templateMap["$patch"] = "replace"
	return json.Marshal(map[string]interface{}{"spec": map[string]interface{}{"template": templateMap}})
}

// hash is k8s.io/kubernetes pkg/controller/history HashControllerRevision for Data.Raw.
func hash(raw []byte, collisionCount int32) string {
	hf := fnv.New32()
	hf.Write(raw)
	hf.Write([]byte(strconv.FormatInt(int64(collisionCount), 10)))
	return rand.SafeEncodeString(fmt.Sprint(hf.Sum32()))
}
