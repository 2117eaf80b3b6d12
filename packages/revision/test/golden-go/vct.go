//go:build !goexperiment.jsonv2

package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/dump"
	kjson "sigs.k8s.io/json"
)

// vctVector is the annotation value OpenKruise v1.9.0 writes for one list of volumeClaimTemplates
// (kruise.io/cloneset-volumeclaimtemplate-hash), or the error of decoding the list.
type vctVector struct {
	Hash  string `json:"hash"`
	Error string `json:"error,omitempty"`
}

// volumeClaimTemplatesHash decodes the list as the controller's cache decodes a CloneSet, keeps the
// name and spec of each template, sorts them by name (stable), marshals the typed list and hashes it
// with FNV-1a over dump.ForHash, which is what Kubernetes' hashutil.DeepHashObject does.
func volumeClaimTemplatesHash(list []byte) vctVector {
	var templates []corev1.PersistentVolumeClaim
	if err := kjson.UnmarshalCaseSensitivePreserveInts(list, &templates); err != nil {
		return vctVector{Error: err.Error()}
	}
	if len(templates) == 0 {
		return vctVector{Hash: ""}
	}
	reduced := make([]corev1.PersistentVolumeClaim, 0, len(templates))
	for i := range templates {
		reduced = append(reduced, corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: templates[i].Name}, Spec: templates[i].Spec})
	}
	sort.SliceStable(reduced, func(i, j int) bool { return reduced[i].Name < reduced[j].Name })
	encoded, err := json.Marshal(reduced)
	if err != nil {
		return vctVector{Error: err.Error()}
	}
	hasher := fnv.New32a()
	hasher.Reset()
	fmt.Fprintf(hasher, "%v", dump.ForHash(encoded))
	return vctVector{Hash: strconv.FormatUint(uint64(hasher.Sum32()), 10)}
}
