//go:build !goexperiment.jsonv2

package main

import appsv1beta1 "github.com/openkruise/kruise-api/apps/v1beta1"

// statefulSetVector is the vector of one Advanced StatefulSet (a whole object, as the API server
// returns it), as golden is for a template.
func statefulSetVector(set []byte) vector {
	return vectorOf(statefulSetRevisionData(set))
}

// statefulSetRevisionData follows OpenKruise's Advanced StatefulSet controller
// (pkg/controller/statefulset/stateful_set_utils.go getPatch): the object decoded into the typed
// apps.kruise.io/v1beta1 StatefulSet as the controller's cache does, encoded with the legacy codec
// (encoding/json), then the same template patch as a CloneSet's.
func statefulSetRevisionData(object []byte) ([]byte, error) {
	return typedTemplatePatch(object, &appsv1beta1.StatefulSet{})
}
