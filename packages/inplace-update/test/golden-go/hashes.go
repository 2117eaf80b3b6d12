//go:build !goexperiment.jsonv2

package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/dump"
	kjson "sigs.k8s.io/json"
)

type envHashInput struct {
	Container   json.RawMessage   `json:"container"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

// deepHashObject is what Kubernetes' pkg/util/hash DeepHashObject does (v1.32): print the object
// with dump.ForHash (go-spew) into the hasher.
func deepHashObject(object interface{}) uint64 {
	hasher := fnv.New32a()
	hasher.Reset()
	fmt.Fprintf(hasher, "%v", dump.ForHash(object))
	return uint64(hasher.Sum32())
}

// splitMaybeSubscriptedPath follows Kubernetes' pkg/fieldpath: "metadata.labels['k']" -> ("metadata.labels", "k").
func splitMaybeSubscriptedPath(fieldPath string) (string, string, bool) {
	if !strings.HasSuffix(fieldPath, "']") {
		return fieldPath, "", false
	}
	parts := strings.SplitN(strings.TrimSuffix(fieldPath, "']"), "['", 2)
	if len(parts) < 2 || parts[0] == "" {
		return fieldPath, "", false
	}
	return parts[0], parts[1], true
}

// envHash is the expected env-from-metadata hash of a container for given labels and annotations, as
// described in OpenKruise's pkg/util/containermeta: the label/annotation env vars resolved, sorted by
// name (stable), marshalled as []EnvVar and hashed with DeepHashObject over FNV-1a.
func envHash(c envHashInput) (uint64, error) {
	var container corev1.Container
	if err := kjson.UnmarshalCaseSensitivePreserveInts(c.Container, &container); err != nil {
		return 0, err
	}
	excluded := map[string]bool{"SIDECARSET_VERSION": true, "SIDECARSET_VERSION_ALT": true}
	var envs []corev1.EnvVar
	for _, env := range container.Env {
		if env.Value != "" || env.ValueFrom == nil || env.ValueFrom.FieldRef == nil || excluded[env.Name] {
			continue
		}
		path, key, ok := splitMaybeSubscriptedPath(env.ValueFrom.FieldRef.FieldPath)
		if !ok {
			continue
		}
		switch path {
		case "metadata.labels":
			envs = append(envs, corev1.EnvVar{Name: env.Name, Value: c.Labels[key]})
		case "metadata.annotations":
			envs = append(envs, corev1.EnvVar{Name: env.Name, Value: c.Annotations[key]})
		}
	}
	sort.SliceStable(envs, func(i, j int) bool { return envs[i].Name < envs[j].Name })
	encoded, err := json.Marshal(envs)
	if err != nil {
		return 0, err
	}
	return deepHashObject(encoded), nil
}
