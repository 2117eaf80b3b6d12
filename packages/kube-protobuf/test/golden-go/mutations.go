package main

import (
	"bytes"
	"fmt"
	"math/rand"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

// unknownFields are fields of every wire type with numbers no Kubernetes type uses (yet): what a newer
// API server may send. Go skips them; so must the decoder.
func unknownFields() []byte {
	var b []byte
	b = protowire.AppendTag(b, 1000, protowire.VarintType)
	b = protowire.AppendVarint(b, 1<<63)
	b = protowire.AppendTag(b, 1001, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte("\x0a\x03abc not a message"))
	b = protowire.AppendTag(b, 1002, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, 7)
	b = protowire.AppendTag(b, 536870911, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, 7)
	return b
}

// withUnknown appends unknown fields to the message at the path of field numbers (the object itself
// for an empty path), rewriting the lengths of the messages around it.
func withUnknown(message []byte, path ...protowire.Number) []byte {
	if len(path) == 0 {
		return append(append([]byte{}, message...), unknownFields()...)
	}
	var out []byte
	done := false
	for len(message) > 0 {
		number, wireType, n := protowire.ConsumeTag(message)
		must(protowire.ParseError(min(n, 0)))
		size := protowire.ConsumeFieldValue(number, wireType, message[n:])
		must(protowire.ParseError(min(size, 0)))
		if number == path[0] && wireType == protowire.BytesType && !done {
			inner, _ := protowire.ConsumeBytes(message[n:])
			out = protowire.AppendTag(out, number, wireType)
			out = protowire.AppendBytes(out, withUnknown(inner, path[1:]...))
			done = true
		} else {
			out = append(out, message[:n+size]...)
		}
		message = message[n+size:]
	}
	if !done {
		must(fmt.Errorf("no field %d to add unknown fields to", path[0]))
	}
	return out
}

// unknownFieldVectors are objects whose protobuf carries fields the tables do not know, at the top, in
// a nested message, in a list item and in a map value, and in the envelope itself.
func unknownFieldVectors() []vector {
	cases := []struct {
		name string
		obj  runtime.Object
		path []protowire.Number
	}{
		{"unknown fields: pod", fullPod(), nil},
		{"unknown fields: pod spec", fullPod(), []protowire.Number{2}},
		{"unknown fields: first container", fullPod(), []protowire.Number{2, 2}},
		{"unknown fields: metadata", fullPod(), []protowire.Number{1}},
		{"unknown fields: first quantity of the node's capacity", fullNode(), []protowire.Number{3, 1, 2}},
		{"unknown fields: list item", &corev1.PodList{TypeMeta: typeMeta("v1", "PodList"), Items: []corev1.Pod{*strip(fullPod())}}, []protowire.Number{2}},
		{"unknown fields: status", notFoundStatus(), nil},
	}
	var out []vector
	for _, c := range cases {
		wire := encode(c.obj)
		envelope := wire[4:]
		// The envelope is runtime.Unknown{typeMeta=1, raw=2, ...}: the object is field 2.
		rewritten := append([]byte("k8s\x00"), withUnknown(envelope, append([]protowire.Number{2}, c.path...)...)...)
		vec := golden(c.name, c.obj)
		if !bytes.Equal(rewritten, wire) {
			vec.Protobuf = encodeBase64(rewritten)
			vec.JSON = roundTripJSON(rewritten)
		}
		out = append(out, vec)
	}
	envelope := append(encode(fullNamespace()), unknownFields()...)
	out = append(out, vector{Name: "unknown fields: envelope", Protobuf: encodeBase64(envelope), JSON: roundTripJSON(envelope)})
	return out
}

// fuzzedVectors are objects with every field filled at random (randfill, as Kubernetes' own round-trip
// tests do), with the types that have their own encodings filled with values the API server can hold.
func fuzzedVectors() []vector {
	filler := randfill.NewWithSeed(41).NilChance(0.25).NumElements(0, 3).MaxDepth(12).Funcs(
		func(q *resource.Quantity, c randfill.Continue) {
			forms := []string{"", "m", "k", "M", "G", "Ki", "Mi", "Gi", "Ti", "e3", "E"}
			*q = resource.MustParse(fmt.Sprintf("%d%s", c.Int63n(1<<40)-(1<<39), forms[c.Intn(len(forms))]))
		},
		func(t *metav1.Time, c randfill.Continue) {
			if c.Intn(5) == 0 {
				*t = metav1.Time{}
				return
			}
			*t = metav1.Unix(c.Int63n(253402300799+62135596800)-62135596800, 0)
		},
		func(t *metav1.MicroTime, c randfill.Continue) {
			if c.Intn(5) == 0 {
				*t = metav1.MicroTime{}
				return
			}
			*t = metav1.NewMicroTime(time.Unix(c.Int63n(253402300799+62135596800)-62135596800, c.Int63n(1e9)))
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(c.Int31() - c.Int31())
			} else {
				*v = intstr.FromString(c.String(0))
			}
		},
		func(r *runtime.RawExtension, c randfill.Continue) {
			r.Raw = []byte(fmt.Sprintf(`{"n":%d,"s":%q,"a":[true,null,1.25]}`, c.Int63()-c.Int63(), c.String(0)))
		},
		func(f *metav1.FieldsV1, c randfill.Continue) {
			f.Raw = []byte(fmt.Sprintf(`{"f:metadata":{"f:labels":{%q:{}}}}`, "f:"+c.String(0)))
		},
		func(m *metav1.TypeMeta, c randfill.Continue) {},
	)
	filler.RandSource(rand.NewSource(41))
	var out []vector
	for i := range 12 {
		pod := &corev1.Pod{}
		node := &corev1.Node{}
		claim := &corev1.PersistentVolumeClaim{}
		event := &corev1.Event{}
		revision := &appsv1.ControllerRevision{}
		namespace := &corev1.Namespace{}
		status := &metav1.Status{}
		for _, obj := range []any{pod, node, claim, event, revision, namespace, status} {
			filler.Fill(obj)
		}
		pod.TypeMeta = typeMeta("v1", "Pod")
		node.TypeMeta = typeMeta("v1", "Node")
		claim.TypeMeta = typeMeta("v1", "PersistentVolumeClaim")
		event.TypeMeta = typeMeta("v1", "Event")
		revision.TypeMeta = typeMeta("apps/v1", "ControllerRevision")
		namespace.TypeMeta = typeMeta("v1", "Namespace")
		status.TypeMeta = typeMeta("v1", "Status")
		suffix := fmt.Sprintf(" #%d", i)
		out = append(out,
			golden("fuzzed pod"+suffix, pod), golden("fuzzed node"+suffix, node), golden("fuzzed pvc"+suffix, claim),
			golden("fuzzed event"+suffix, event), golden("fuzzed controllerrevision"+suffix, revision),
			golden("fuzzed namespace"+suffix, namespace), golden("fuzzed status"+suffix, status))
	}
	return out
}
