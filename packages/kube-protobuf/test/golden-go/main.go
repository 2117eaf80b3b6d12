// Command golden-go prints golden vectors for @kruise-ts/kube-protobuf: a corpus of API objects, each as
// the API server would send it in protobuf (Kubernetes' own protobuf serializer, `k8s\0` envelope
// included) and in JSON, as a JSON array on stdout:
//
//	[{"name": "...", "protobuf": "<base64>", "json": "<the JSON text>"}, ...]
//
// The JSON is that of the object after a protobuf round trip (encoded, then decoded again by Go), as
// the API server's JSON is: it reads objects from etcd, where built-in types are stored in protobuf. A
// JSON-only difference therefore cannot hide (nil and empty slices, which protobuf cannot tell apart,
// and times, which protobuf keeps to the second).
//
// With the argument `bench N` it prints one case instead: a PodList of N realistic pods; with `sample`,
// the few vectors checked in as test/fixtures/golden-sample.json for the unit tests, which run without Go.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
)

type vector struct {
	Name     string `json:"name"`
	Protobuf string `json:"protobuf"`
	JSON     string `json:"json"`
}

var scheme = runtime.NewScheme()

var serializer *protobuf.Serializer

func init() {
	must(corev1.AddToScheme(scheme))
	must(appsv1.AddToScheme(scheme))
	serializer = protobuf.NewSerializer(scheme, scheme)
}

func main() {
	var out []vector
	if len(os.Args) == 2 && os.Args[1] == "sample" {
		out = sample()
	} else if len(os.Args) == 3 && os.Args[1] == "bench" {
		count, err := strconv.Atoi(os.Args[2])
		must(err)
		out = []vector{golden("bench", benchPodList(count))}
	} else {
		out = corpus()
	}
	encoded, err := json.Marshal(out)
	must(err)
	fmt.Println(string(encoded))
}

// golden encodes the object as the API server does and pairs it with the JSON of its round trip.
func golden(name string, obj runtime.Object) vector {
	wire := encode(obj)
	return vector{Name: name, Protobuf: base64.StdEncoding.EncodeToString(wire), JSON: roundTripJSON(wire)}
}

// encode is the protobuf serializer's output: `k8s\0`, then runtime.Unknown{typeMeta, raw}.
func encode(obj runtime.Object) []byte {
	var buffer bytes.Buffer
	must(serializer.Encode(obj, &buffer))
	return buffer.Bytes()
}

// roundTripJSON decodes enveloped protobuf as the API server does and prints the object's JSON. A list
// the API server answers has non-nil items (meta.SetList makes the slice), `"items":[]` when empty.
func roundTripJSON(wire []byte) string {
	decoded, _, err := serializer.Decode(wire, nil, nil)
	must(err)
	if meta.IsListType(decoded) {
		items, err := meta.ExtractList(decoded)
		must(err)
		must(meta.SetList(decoded, items))
	}
	encoded, err := json.Marshal(decoded)
	must(err)
	return string(encoded)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "golden-go:", err)
		os.Exit(1)
	}
}

// typeMeta is what the API server sets on the objects it sends (but not on the items of a list).
func typeMeta(apiVersion, kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
}
