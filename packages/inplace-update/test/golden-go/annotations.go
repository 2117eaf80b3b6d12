//go:build !goexperiment.jsonv2

package main

import (
	"encoding/json"
	"strings"

	"github.com/appscode/jsonpatch"
	appspub "github.com/openkruise/kruise-api/apps/pub"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// updateSpec has the JSON layout of OpenKruise's inplaceupdate.UpdateSpec (pkg/util/inplaceupdate),
// which lives outside kruise-api: the grace annotation holds it.
type updateSpec struct {
	Revision              string                                 `json:"revision"`
	ContainerImages       map[string]string                      `json:"containerImages,omitempty"`
	ContainerRefMetadata  map[string]metav1.ObjectMeta           `json:"containerRefMetadata,omitempty"`
	ContainerResources    map[string]corev1.ResourceRequirements `json:"containerResources,omitempty"`
	MetaDataPatch         []byte                                 `json:"metaDataPatch,omitempty"`
	UpdateEnvFromMetadata bool                                   `json:"updateEnvFromMetadata,omitempty"`
	GraceSeconds          int32                                  `json:"graceSeconds,omitempty"`
	OldTemplate           *corev1.PodTemplateSpec                `json:"oldTemplate,omitempty"`
	NewTemplate           *corev1.PodTemplateSpec                `json:"newTemplate,omitempty"`
}

// roundTripState decodes a state annotation as OpenKruise does (json.Unmarshal into
// appspub.InPlaceUpdateState) and marshals it again.
func roundTripState(raw json.RawMessage) encoded {
	var state appspub.InPlaceUpdateState
	if err := json.Unmarshal(raw, &state); err != nil {
		return encoded{Error: err.Error()}
	}
	out, err := json.Marshal(state)
	if err != nil {
		return encoded{Error: err.Error()}
	}
	return encoded{JSON: string(out)}
}

// roundTripUpdateSpec does the same for a grace annotation.
func roundTripUpdateSpec(raw json.RawMessage) encoded {
	var spec updateSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return encoded{Error: err.Error()}
	}
	out, err := json.Marshal(spec)
	if err != nil {
		return encoded{Error: err.Error()}
	}
	return encoded{JSON: string(out)}
}

type metadataPatchPair struct {
	Old metav1.ObjectMeta `json:"old"`
	New metav1.ObjectMeta `json:"new"`
}

// metadataPatch is the strategic two-way merge patch between two pods with only this metadata, the
// step that produces UpdateSpec.MetaDataPatch.
func metadataPatch(pair metadataPatchPair) encoded {
	oldBytes, _ := json.Marshal(corev1.Pod{ObjectMeta: pair.Old})
	newBytes, _ := json.Marshal(corev1.Pod{ObjectMeta: pair.New})
	patch, err := strategicpatch.CreateTwoWayMergePatch(oldBytes, newBytes, &corev1.Pod{})
	if err != nil {
		return encoded{Error: err.Error()}
	}
	return encoded{JSON: string(patch)}
}

type revisionDiffPair struct {
	Old string `json:"old"`
	New string `json:"new"`
}

type diffOp struct {
	Op   string `json:"op"`
	Path string `json:"path"`
}

// revisionDiff is the RFC 6902 diff OpenKruise takes between two revisions' data, with the leading
// /spec/template removed from each path as OpenKruise does.
func revisionDiff(pair revisionDiffPair) ([]diffOp, error) {
	ops, err := jsonpatch.CreatePatch([]byte(pair.Old), []byte(pair.New))
	if err != nil {
		return nil, err
	}
	out := make([]diffOp, 0, len(ops))
	for _, op := range ops {
		out = append(out, diffOp{Op: op.Operation, Path: strings.Replace(op.Path, "/spec/template", "", 1)})
	}
	return out, nil
}
