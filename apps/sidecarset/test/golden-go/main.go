//go:build !goexperiment.jsonv2

// Command golden-go reads a JSON array of stored SidecarSets on stdin and prints, for each, the JSON
// OpenKruise 1.9 hashes for kruise.io/sidecarset-hash (pkg/control/sidecarcontrol hash.go: the map
// {"containers": ..., "initContainers": ... when one is a native sidecar}, json.Marshal), its hash and
// the hash without images (sha256, hex, rand.SafeEncodeString). The vectors' containers carry every
// default of OpenKruise's SidecarSet webhook explicitly, so that the webhook's defaulting (checked by
// packages/revision/test/golden-go) is a no-op here.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"

	appsv1alpha1 "github.com/openkruise/kruise-api/apps/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	kjson "sigs.k8s.io/json"
)

// ResourceExpressions is OpenKruise 1.9's ResourceExprLimits and ResourceExprRequests (the same fields).
type ResourceExpressions struct {
	CPU    string `json:"cpu,omitempty"`
	Memory string `json:"memory,omitempty"`
}

// ResourcesExpr is OpenKruise 1.9's ResourcesExpr.
type ResourcesExpr struct {
	Limits   *ResourceExpressions `json:"limits,omitempty"`
	Requests *ResourceExpressions `json:"requests,omitempty"`
}

// ResourcesPolicy is OpenKruise 1.9's ResourcesPolicy.
type ResourcesPolicy struct {
	TargetContainersMode      string        `json:"targetContainersMode"`
	TargetContainersNameRegex string        `json:"targetContainersNameRegex,omitempty"`
	ResourcesExpr             ResourcesExpr `json:"resourcesExpr"`
}

// SidecarContainer is OpenKruise 1.9's: v1.8.0's fields (shareVolumeDevicePolicy, added in between,
// is left out of the vectors), then resourcesPolicy, its last field.
type SidecarContainer struct {
	appsv1alpha1.SidecarContainer
	ResourcesPolicy *ResourcesPolicy `json:"resourcesPolicy,omitempty"`
}

type sidecarSet struct {
	Spec struct {
		Containers     []SidecarContainer `json:"containers,omitempty"`
		InitContainers []SidecarContainer `json:"initContainers,omitempty"`
	} `json:"spec"`
}

type vector struct {
	Encoded          string `json:"encoded,omitempty"`
	Hash             string `json:"hash,omitempty"`
	HashWithoutImage string `json:"hashWithoutImage,omitempty"`
	Error            string `json:"error,omitempty"`
}

func encode(containers, initContainers []SidecarContainer) (string, error) {
	m := map[string]interface{}{"containers": containers}
	for _, container := range initContainers {
		if container.RestartPolicy != nil && *container.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			m["initContainers"] = initContainers
			break
		}
	}
	data, err := json.Marshal(m)
	return string(data), err
}

func withoutImages(list []SidecarContainer) []SidecarContainer {
	if list == nil {
		return nil
	}
	out := make([]SidecarContainer, len(list))
	for i := range list {
		out[i] = list[i]
		out[i].Image = ""
	}
	return out
}

func hashOf(data string) string {
	return rand.SafeEncodeString(fmt.Sprintf("%x", sha256.Sum256([]byte(data))))
}

func vectorOf(raw json.RawMessage) vector {
	var set sidecarSet
	if err := kjson.UnmarshalCaseSensitivePreserveInts(raw, &set); err != nil {
		return vector{Error: err.Error()}
	}
	encoded, err := encode(set.Spec.Containers, set.Spec.InitContainers)
	if err != nil {
		return vector{Error: err.Error()}
	}
	encodedWithoutImage, err := encode(withoutImages(set.Spec.Containers), withoutImages(set.Spec.InitContainers))
	if err != nil {
		return vector{Error: err.Error()}
	}
	return vector{Encoded: encoded, Hash: hashOf(encoded), HashWithoutImage: hashOf(encodedWithoutImage)}
}

func main() {
	input, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var sets []json.RawMessage
	if err := json.Unmarshal(input, &sets); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	vectors := make([]vector, 0, len(sets))
	for _, raw := range sets {
		vectors = append(vectors, vectorOf(raw))
	}
	if err := json.NewEncoder(os.Stdout).Encode(vectors); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
