// Command gen-wire-tables prints, as a TypeScript module, the wire tables of @kruise-ts/kube-protobuf:
// for every Go struct reachable from the API kinds the controllers read, its protobuf fields by number
// with the JSON name, the Go type (pointer, slice, map, scalar kind, struct, or one of the types with
// their own JSON form) and the JSON options.
//
// The k8s.io/api Go structs are the schema that go-to-protobuf generates generated.proto from, and
// only they carry what the JSON shape needs besides the field numbers: the `json` names and options
// (omitempty, omitzero, inline) and whether a field is a pointer. Anything the TypeScript decoder could
// not reproduce exactly (a custom JSON encoding it does not know, an option it does not model, a field
// without a protobuf tag, a wire type that does not fit the Go kind) stops the generator instead of
// being guessed.
package main

import (
	"encoding"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// kind is an API kind as the `k8s\0` envelope names it, and its Go type.
type kind struct {
	APIVersion string
	Kind       string
	Type       reflect.Type
}

// kinds are the top-level objects the decoder accepts in an envelope: what the controllers list,
// watch and get as built-in types, their lists, and the Status of an error answer.
var kinds = []kind{
	{"v1", "Pod", reflect.TypeFor[corev1.Pod]()},
	{"v1", "PodList", reflect.TypeFor[corev1.PodList]()},
	{"v1", "Node", reflect.TypeFor[corev1.Node]()},
	{"v1", "NodeList", reflect.TypeFor[corev1.NodeList]()},
	{"v1", "PersistentVolumeClaim", reflect.TypeFor[corev1.PersistentVolumeClaim]()},
	{"v1", "PersistentVolumeClaimList", reflect.TypeFor[corev1.PersistentVolumeClaimList]()},
	{"v1", "Namespace", reflect.TypeFor[corev1.Namespace]()},
	{"v1", "NamespaceList", reflect.TypeFor[corev1.NamespaceList]()},
	{"v1", "Event", reflect.TypeFor[corev1.Event]()},
	{"v1", "EventList", reflect.TypeFor[corev1.EventList]()},
	{"apps/v1", "ControllerRevision", reflect.TypeFor[appsv1.ControllerRevision]()},
	{"apps/v1", "ControllerRevisionList", reflect.TypeFor[appsv1.ControllerRevisionList]()},
	{"v1", "Status", reflect.TypeFor[metav1.Status]()},
}

// Types with their own JSON form (and, for some, their own protobuf form), by the name the table uses.
var specialTypes = map[reflect.Type]string{
	reflect.TypeFor[metav1.Time]():          "Time",
	reflect.TypeFor[metav1.MicroTime]():     "MicroTime",
	reflect.TypeFor[metav1.Duration]():      "Duration",
	reflect.TypeFor[resource.Quantity]():    "Quantity",
	reflect.TypeFor[intstr.IntOrString]():   "IntOrString",
	reflect.TypeFor[runtime.RawExtension](): "RawJSON",
	reflect.TypeFor[metav1.FieldsV1]():      "RawJSON",
}

// Fields whose RawExtension holds a whole enveloped object rather than JSON: the watch event's object
// (the watch encoder embeds the object in protobuf, `k8s\0` envelope included).
var objectFields = map[string]bool{"meta/v1.WatchEvent.object": true}

// Interfaces through which a type takes over its own JSON form in encoding/json.
var customEncodings = []reflect.Type{
	reflect.TypeFor[json.Marshaler](),
	reflect.TypeFor[encoding.TextMarshaler](),
}

// The protobuf scalar type of each Go kind (go-to-protobuf's mapping).
var scalarNames = map[reflect.Kind]string{
	reflect.String:  "string",
	reflect.Bool:    "bool",
	reflect.Int32:   "int32",
	reflect.Int64:   "int64",
	reflect.Uint32:  "uint32",
	reflect.Uint64:  "uint64",
	reflect.Float64: "double",
}

type field struct {
	Number  int
	JSON    string
	Type    string
	Options []string
}

type generator struct {
	structs map[string][]field
	owners  map[string]reflect.Type
	queue   []reflect.Type
}

func main() {
	g := &generator{structs: map[string][]field{}, owners: map[string]reflect.Type{}}
	for _, k := range kinds {
		g.queueStruct(k.Type)
	}
	g.queueStruct(reflect.TypeFor[metav1.WatchEvent]())
	for len(g.queue) > 0 {
		next := g.queue[0]
		g.queue = g.queue[1:]
		g.structs[typeName(next)] = g.fields(next)
	}
	fmt.Print(render(g.structs))
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "gen-wire-tables: "+format+"\n", args...)
	os.Exit(1)
}

// typeName is the table's name of a struct: its package path without the module prefix, and its name.
func typeName(t reflect.Type) string {
	path := t.PkgPath()
	for _, prefix := range []string{"k8s.io/api/", "k8s.io/apimachinery/pkg/apis/", "k8s.io/apimachinery/pkg/util/", "k8s.io/apimachinery/pkg/api/", "k8s.io/apimachinery/pkg/"} {
		if strings.HasPrefix(path, prefix) {
			return strings.TrimPrefix(path, prefix) + "." + t.Name()
		}
	}
	fail("%s is outside k8s.io/api and k8s.io/apimachinery", t)
	return ""
}

func (g *generator) queueStruct(t reflect.Type) {
	name := typeName(t)
	if owner, seen := g.owners[name]; seen {
		if owner != t {
			fail("two structs are both named %s", name)
		}
		return
	}
	g.owners[name] = t
	g.queue = append(g.queue, t)
}

// typeExpr names the Go type of a field in the table's notation (`*int64`, `[]core/v1.Container`,
// `map[string]Quantity`, `Time`, ...) and queues the structs it reaches. The wire type follows from
// the Go kind as in go-to-protobuf; the wire word of the struct tag is not used, because it is not
// always right (core/v1 PodSpec.Priority, a *int32 and a varint on the wire, is tagged `bytes`).
func (g *generator) typeExpr(t reflect.Type, where string) string {
	if name, ok := specialTypes[t]; ok {
		return name
	}
	if t.Kind() != reflect.Pointer && hasCustomEncoding(t) {
		fail("%s: %s has its own JSON encoding that the table cannot describe; teach the generator and the decoder about it", where, t)
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + g.typeExpr(t.Elem(), where)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "bytes"
		}
		return "[]" + g.typeExpr(t.Elem(), where)
	case reflect.Map:
		if t.Key().Kind() != reflect.String || hasCustomEncoding(t.Key()) {
			fail("%s: %s has a map key that is not a plain string", where, t)
		}
		if t.Elem().Kind() == reflect.Slice && t.Elem().Elem().Kind() != reflect.Uint8 {
			fail("%s: %s has slice values, which protobuf cannot hold directly", where, t)
		}
		return "map[string]" + g.typeExpr(t.Elem(), where)
	case reflect.Struct:
		g.queueStruct(t)
		return typeName(t)
	default:
		scalar, ok := scalarNames[t.Kind()]
		if !ok {
			fail("%s: %s has kind %s, which the table cannot describe", where, t, t.Kind())
		}
		return scalar
	}
}

func hasCustomEncoding(t reflect.Type) bool {
	for _, encoding := range customEncodings {
		if t.Implements(encoding) || reflect.PointerTo(t).Implements(encoding) {
			return true
		}
	}
	return false
}

// fields lists the protobuf fields of a struct with their JSON names and options, by field number.
// Embedded structs without a protobuf tag (TypeMeta, whose kind and apiVersion the envelope carries)
// are left out; embedded structs with one are a nested message on the wire whose fields JSON inlines.
func (g *generator) fields(t reflect.Type) []field {
	var out []field
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		where := typeName(t) + "." + f.Name
		protoTag, hasProto := f.Tag.Lookup("protobuf")
		jsonName, options := jsonOf(f, where)
		if !hasProto {
			if f.Anonymous && f.Type == reflect.TypeFor[metav1.TypeMeta]() {
				continue
			}
			if jsonName == "-" {
				continue
			}
			fail("%s has no protobuf tag: its JSON field %q would be lost on the wire", where, jsonName)
		}
		number := parseProtoTag(protoTag, where)
		if jsonName == "-" {
			fail("%s is on the wire but not in JSON", where)
		}
		typ := g.typeExpr(f.Type, where)
		if objectFields[typeName(t)+"."+jsonName] {
			typ = "Object"
		}
		if jsonName == "" {
			options = append(options, "inline")
			if !strings.Contains(typ, ".") || strings.ContainsAny(typ, "*[]") {
				fail("%s is inlined into its parent's JSON, which the decoder supports only for a non-pointer struct", where)
			}
		}
		out = append(out, field{Number: number, JSON: jsonName, Type: typ, Options: options})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Number < out[b].Number })
	for i := 1; i < len(out); i++ {
		if out[i].Number == out[i-1].Number {
			fail("%s has two fields numbered %d", typeName(t), out[i].Number)
		}
	}
	return out
}

// jsonOf is the field's JSON name ("" when inlined, "-" when not in JSON) and the options the table keeps.
func jsonOf(f reflect.StructField, where string) (string, []string) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "-", nil
	}
	name, rest, _ := strings.Cut(tag, ",")
	var options []string
	inline := false
	for _, option := range strings.Split(rest, ",") {
		switch option {
		case "":
		case "omitempty", "omitzero":
			options = append(options, option)
		case "inline":
			inline = true
		default:
			fail("%s has json option %q, which the table cannot describe", where, option)
		}
	}
	if name == "" && !(inline && f.Anonymous) {
		fail("%s has no JSON name and is not an embedded inline struct", where)
	}
	for _, option := range options {
		if option == "omitzero" && f.Type != reflect.TypeFor[metav1.Time]() && f.Type != reflect.TypeFor[metav1.MicroTime]() {
			fail("%s is omitzero; the decoder knows what zero is only for Time and MicroTime", where)
		}
	}
	return name, options
}

// parseProtoTag reads `bytes,1,rep,name=containers,casttype=...`: the field number. Whether the
// field is repeated comes from the Go type (a slice or a map), as in go-to-protobuf: the tags say `opt`
// for some slices (core/v1 PodSpec.Tolerations) whose generated.proto field is `repeated`, and some
// say neither (core/v1 EventSeries.Count).
func parseProtoTag(tag string, where string) int {
	parts := strings.Split(tag, ",")
	if len(parts) < 2 {
		fail("%s has protobuf tag %q", where, tag)
	}
	number, err := strconv.Atoi(parts[1])
	if err != nil || number <= 0 {
		fail("%s has protobuf tag %q", where, tag)
	}
	return number
}

func apiVersion(module string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fail("no build information; run with `go run .`")
	}
	for _, dep := range info.Deps {
		if dep.Path == module {
			if dep.Replace != nil {
				return dep.Replace.Version
			}
			return dep.Version
		}
	}
	fail("%s is not a dependency of this build", module)
	return ""
}

func render(structs map[string][]field) string {
	var b strings.Builder
	version := apiVersion("k8s.io/api")
	machinery := apiVersion("k8s.io/apimachinery")
	fmt.Fprintf(&b, "// Code generated by packages/kube-protobuf/tools/gen-wire-tables from k8s.io/api %s and k8s.io/apimachinery %s. DO NOT EDIT.\n", version, machinery)
	b.WriteString("// Regenerate: npm run generate -w @kruise-ts/kube-protobuf\n\n")
	b.WriteString("import type { WireKind, WireStructs } from './wire-table-types.ts';\n\n")
	b.WriteString("/** The k8s.io/api version whose Go types the tables describe. */\n")
	fmt.Fprintf(&b, "export const WIRE_TABLES_K8S_API_VERSION = '%s';\n\n", version)
	b.WriteString("/** The kinds an envelope may carry: apiVersion, kind, Go struct. */\n")
	b.WriteString("export const WIRE_KINDS: readonly WireKind[] = [\n")
	for _, k := range kinds {
		fmt.Fprintf(&b, "  ['%s', '%s', '%s'],\n", k.APIVersion, k.Kind, typeName(k.Type))
	}
	b.WriteString("];\n\n")
	b.WriteString("/**\n * Every Go struct the kinds reach: its protobuf fields by number, as [number, JSON name ('' when\n")
	b.WriteString(" * inlined), Go type, JSON options].\n */\n")
	b.WriteString("export const WIRE_STRUCTS: WireStructs = {\n")
	names := make([]string, 0, len(structs))
	for name := range structs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(&b, "  '%s': [\n", name)
		for _, f := range structs[name] {
			fmt.Fprintf(&b, "    [%d, '%s', '%s', '%s'],\n", f.Number, f.JSON, f.Type, strings.Join(f.Options, " "))
		}
		b.WriteString("  ],\n")
	}
	b.WriteString("};\n")
	return b.String()
}
