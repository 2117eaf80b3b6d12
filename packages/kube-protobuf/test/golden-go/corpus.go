package main

import (
	"math"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// corpus is every golden vector: hand-written objects with every field the controllers read and the
// edge values, the same objects in lists, objects with unknown fields, and randomly filled objects.
func corpus() []vector {
	objects := []struct {
		name string
		obj  runtime.Object
	}{
		{"pod: full", fullPod()},
		{"pod: zero", &corev1.Pod{TypeMeta: typeMeta("v1", "Pod")}},
		{"pod: empty values", emptyValuesPod()},
		{"pod: big values", bigPod()},
		{"pod: times", timesPod()},
		{"node: full", fullNode()},
		{"node: zero", &corev1.Node{TypeMeta: typeMeta("v1", "Node")}},
		{"pvc: full", fullClaim()},
		{"pvc: zero", &corev1.PersistentVolumeClaim{TypeMeta: typeMeta("v1", "PersistentVolumeClaim")}},
		{"controllerrevision: full", fullRevision()},
		{"controllerrevision: no data", &appsv1.ControllerRevision{TypeMeta: typeMeta("apps/v1", "ControllerRevision"), Revision: math.MinInt64}},
		{"namespace: full", fullNamespace()},
		{"namespace: zero", &corev1.Namespace{TypeMeta: typeMeta("v1", "Namespace")}},
		{"event: full", fullEvent()},
		{"event: zero", &corev1.Event{TypeMeta: typeMeta("v1", "Event")}},
		{"status: not found", notFoundStatus()},
		{"status: invalid", invalidStatus()},
		{"status: zero", &metav1.Status{TypeMeta: typeMeta("v1", "Status")}},
		{"podlist", &corev1.PodList{TypeMeta: typeMeta("v1", "PodList"), ListMeta: listMeta(), Items: []corev1.Pod{*strip(fullPod()), *strip(emptyValuesPod()), {}}}},
		{"podlist: empty", &corev1.PodList{TypeMeta: typeMeta("v1", "PodList"), ListMeta: metav1.ListMeta{ResourceVersion: "1"}}},
		{"nodelist", &corev1.NodeList{TypeMeta: typeMeta("v1", "NodeList"), ListMeta: listMeta(), Items: []corev1.Node{*strip(fullNode())}}},
		{"pvclist", &corev1.PersistentVolumeClaimList{TypeMeta: typeMeta("v1", "PersistentVolumeClaimList"), Items: []corev1.PersistentVolumeClaim{*strip(fullClaim())}}},
		{"controllerrevisionlist", &appsv1.ControllerRevisionList{TypeMeta: typeMeta("apps/v1", "ControllerRevisionList"), Items: []appsv1.ControllerRevision{*strip(fullRevision())}}},
		{"namespacelist", &corev1.NamespaceList{TypeMeta: typeMeta("v1", "NamespaceList"), Items: []corev1.Namespace{*strip(fullNamespace())}}},
		{"eventlist", &corev1.EventList{TypeMeta: typeMeta("v1", "EventList"), Items: []corev1.Event{*strip(fullEvent())}}},
	}
	var out []vector
	for _, o := range objects {
		out = append(out, golden(o.name, o.obj))
	}
	out = append(out, unknownFieldVectors()...)
	return append(out, fuzzedVectors()...)
}

// sample is the part of the corpus the unit tests read from test/fixtures/golden-sample.json.
func sample() []vector {
	return []vector{
		golden("pod: full", fullPod()),
		golden("pod: times", timesPod()),
		golden("node: full", fullNode()),
		golden("event: full", fullEvent()),
		golden("status: not found", notFoundStatus()),
		golden("podlist: empty", &corev1.PodList{TypeMeta: typeMeta("v1", "PodList"), ListMeta: metav1.ListMeta{ResourceVersion: "1"}}),
	}
}

// strip removes the TypeMeta, as the API server's lists carry none on their items.
func strip[T any, P interface {
	*T
	runtime.Object
}](obj P) P {
	obj.GetObjectKind().SetGroupVersionKind(emptyGVK)
	return obj
}

func listMeta() metav1.ListMeta {
	remaining := int64(12)
	return metav1.ListMeta{ResourceVersion: "12345", Continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ", RemainingItemCount: &remaining}
}

func ptr[T any](v T) *T { return &v }

// at is a time as Kubernetes stores it: in seconds (protobuf drops the nanoseconds of a metav1.Time).
func at(value string) metav1.Time {
	parsed, err := time.Parse(time.RFC3339Nano, value)
	must(err)
	return metav1.NewTime(parsed)
}

func objectMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name:                       name,
		GenerateName:               "web-",
		Namespace:                  "default",
		UID:                        "3f8c1a52-6a4e-4a3b-9a57-2f1f4f0c9d11",
		ResourceVersion:            "918273",
		Generation:                 3,
		CreationTimestamp:          at("2026-11-29T06:58:29Z"),
		DeletionTimestamp:          ptr(at("2026-11-29T07:00:00.123456789Z")),
		DeletionGracePeriodSeconds: ptr(int64(30)),
		Labels:                     map[string]string{"app": "web", "controller-revision-hash": "web-7d9f8b6c5d", "apps.kruise.io/cloneset-instance-id": "x2k9p", "empty": ""},
		Annotations:                map[string]string{"kruise.io/inplace-update-state": `{"revision":"web-7d9f8b6c5d","updateTimestamp":"2026-11-29T06:58:29Z"}`, "html": "<a href=\"x\">&amp;</a>", "unicode": "ünïcødé \u2028 \U0001F600"},
		OwnerReferences: []metav1.OwnerReference{
			{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web", UID: "0b3c6f9e-1d2a-4c5b-8e7f-9a0b1c2d3e4f", Controller: ptr(true), BlockOwnerDeletion: ptr(true)},
			{APIVersion: "v1", Kind: "ConfigMap", Name: "other", UID: "u2", Controller: ptr(false)},
		},
		Finalizers: []string{"apps.kruise.io/lifecycle", "kubernetes.io/pvc-protection"},
		ManagedFields: []metav1.ManagedFieldsEntry{
			{Manager: "kruise-manager", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: ptr(at("2026-11-29T06:58:29Z")), FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{}}}}}`)}},
			{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "v1", Subresource: "status"},
		},
	}
}

func emptyValuesPod() *corev1.Pod {
	return &corev1.Pod{
		TypeMeta: typeMeta("v1", "Pod"),
		ObjectMeta: metav1.ObjectMeta{
			Name: "", Labels: map[string]string{}, Annotations: map[string]string{"": ""}, Finalizers: []string{},
			DeletionGracePeriodSeconds: ptr(int64(0)), Generation: 0,
			OwnerReferences: []metav1.OwnerReference{{Controller: ptr(false), BlockOwnerDeletion: ptr(false)}},
		},
		Spec: corev1.PodSpec{
			Containers:     []corev1.Container{{Name: "", Ports: []corev1.ContainerPort{{ContainerPort: 0}}, Env: []corev1.EnvVar{{Name: "E", Value: ""}}, Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{}}}},
			InitContainers: []corev1.Container{},
			Priority:       ptr(int32(0)),
			NodeSelector:   map[string]string{},
			Tolerations:    []corev1.Toleration{{}},
			ReadinessGates: []corev1.PodReadinessGate{{ConditionType: ""}},
			Affinity:       &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{}}},
			Volumes:        []corev1.Volume{{Name: "v"}},
		},
		Status: corev1.PodStatus{
			Conditions:        []corev1.PodCondition{{Type: "Ready", Status: corev1.ConditionFalse}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "c", Started: ptr(false), RestartCount: 0, Ready: false}},
			PodIPs:            []corev1.PodIP{},
		},
	}
}

func bigPod() *corev1.Pod {
	pod := fullPod()
	pod.Annotations["long"] = strings.Repeat("0123456789abcdef", 8192)
	pod.Annotations["invalid-utf8"] = "a\xffb\xe2\x82c\xed\xa0\x80d\xf0\x9f\x98"
	for i := range 1000 {
		pod.Labels["label-"+strings.Repeat("k", i%50)+"-"+itoa(i)] = "value-" + itoa(i)
	}
	template := pod.Spec.Containers[0]
	for i := range 120 {
		c := template
		c.Name = "c" + itoa(i)
		pod.Spec.Containers = append(pod.Spec.Containers, c)
	}
	pod.Generation = math.MaxInt64
	pod.DeletionGracePeriodSeconds = ptr(int64(math.MinInt64))
	pod.Spec.ActiveDeadlineSeconds = ptr(int64(1<<53 + 1))
	pod.Spec.TerminationGracePeriodSeconds = ptr(int64(-(1<<53 + 3)))
	pod.Spec.Priority = ptr(int32(math.MinInt32))
	pod.Spec.SecurityContext = &corev1.PodSecurityContext{RunAsUser: ptr(int64(math.MaxInt64 - 1)), RunAsGroup: ptr(int64(9007199254740993)), SupplementalGroups: []int64{0, -1, math.MaxInt64, math.MinInt64, 1 << 53, 1<<53 + 1, 4294967296, 4294967295, -4294967297}}
	pod.Status.ContainerStatuses[0].RestartCount = math.MaxInt32
	return pod
}

func timesPod() *corev1.Pod {
	pod := &corev1.Pod{TypeMeta: typeMeta("v1", "Pod"), ObjectMeta: metav1.ObjectMeta{Name: "times", CreationTimestamp: at("1970-01-01T00:00:00Z")}}
	for i, value := range []string{"0001-01-01T00:00:01Z", "0099-03-01T12:00:00Z", "1969-12-31T23:59:59Z", "1970-01-01T00:00:00Z", "2000-02-29T23:59:59.999999999Z", "2038-01-19T03:14:08Z", "9999-12-31T23:59:59Z"} {
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: corev1.PodConditionType("T" + itoa(i)), LastTransitionTime: at(value), LastProbeTime: at(value)})
	}
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: "Zero"})
	return pod
}

func itoa(i int) string { return strconv.Itoa(i) }
