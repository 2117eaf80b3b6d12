// Command gen-field-table prints, as a TypeScript module, the JSON field table of every Go struct that
// is reachable from core/v1 PodTemplateSpec: JSON name, omitempty, and the Go type written as a small
// type expression (`*bool`, `[]Container`, `map[string]Quantity`, ...).
//
// The TypeScript revision code replays Go's typed JSON round trip from this table, so the table must
// describe exactly what encoding/json does with these types. Anything the TypeScript side cannot model
// (a custom JSON or text marshaller we do not know, `,string`, interfaces, byte slices, embedded
// pointers, non-string map keys) stops the generator instead of being guessed. `omitzero` is written
// into the table so that it shows in a diff; the TypeScript side refuses a table that uses it.
package main

import (
	"encoding"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Types whose JSON form comes from their own MarshalJSON/UnmarshalJSON, by the name the table uses.
var specialTypes = map[reflect.Type]string{
	reflect.TypeFor[resource.Quantity]():  "Quantity",
	reflect.TypeFor[metav1.Time]():        "Time",
	reflect.TypeFor[intstr.IntOrString](): "IntOrString",
	reflect.TypeFor[metav1.FieldsV1]():    "RawJSON",
}

// Interfaces through which a type takes over its own JSON form in encoding/json.
var customEncodings = []reflect.Type{
	reflect.TypeFor[json.Marshaler](),
	reflect.TypeFor[json.Unmarshaler](),
	reflect.TypeFor[encoding.TextMarshaler](),
	reflect.TypeFor[encoding.TextUnmarshaler](),
}

type field struct {
	JSONName  string
	Type      string
	OmitEmpty bool
	// OmitZero (Go 1.24) is recorded so that a newer k8s.io/api shows up in the table's diff; the
	// TypeScript side refuses a table that uses it (see the README on choosing the version).
	OmitZero bool
}

type generator struct {
	structs map[string][]field
	owners  map[string]reflect.Type
	queue   []reflect.Type
}

func main() {
	g := &generator{structs: map[string][]field{}, owners: map[string]reflect.Type{}}
	root := g.typeExpr(reflect.TypeFor[corev1.PodTemplateSpec]())
	for len(g.queue) > 0 {
		next := g.queue[0]
		g.queue = g.queue[1:]
		g.structs[next.Name()] = g.fields(next)
	}
	fmt.Print(render(root, g.structs))
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "gen-field-table: "+format+"\n", args...)
	os.Exit(1)
}

// typeExpr names a Go type in the table's notation and queues the structs it reaches.
func (g *generator) typeExpr(t reflect.Type) string {
	if name, ok := specialTypes[t]; ok {
		return name
	}
	if t.Kind() != reflect.Pointer && hasCustomEncoding(t) {
		fail("%s has its own JSON encoding that the table cannot describe; teach the generator and the TypeScript side about it", t)
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + g.typeExpr(t.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			fail("%s is a byte slice (base64 in JSON); not supported", t)
		}
		return "[]" + g.typeExpr(t.Elem())
	case reflect.Map:
		if t.Key().Kind() != reflect.String || hasCustomEncoding(t.Key()) {
			fail("%s has a map key that is not a plain string", t)
		}
		return "map[string]" + g.typeExpr(t.Elem())
	case reflect.Struct:
		g.queueStruct(t)
		return t.Name()
	case reflect.String, reflect.Bool, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return t.Kind().String()
	default:
		fail("%s has kind %s, which the table cannot describe", t, t.Kind())
		return ""
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

func (g *generator) queueStruct(t reflect.Type) {
	if owner, seen := g.owners[t.Name()]; seen {
		if owner != t {
			fail("two structs are both named %s (%s and %s)", t.Name(), owner.PkgPath(), t.PkgPath())
		}
		return
	}
	g.owners[t.Name()] = t
	g.queue = append(g.queue, t)
}

// fields lists the JSON fields of a struct as encoding/json sees them: embedded structs without a JSON
// name are flattened into their parent, unexported and `json:"-"` fields are skipped.
func (g *generator) fields(t reflect.Type) []field {
	var out []field
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, options, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			if f.Type.Kind() != reflect.Struct {
				fail("%s.%s is an embedded %s; only embedded structs are supported", t, f.Name, f.Type.Kind())
			}
			out = append(out, g.fields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		omitEmpty, omitZero := jsonOptions(t, f, options)
		out = append(out, field{JSONName: name, Type: g.typeExpr(f.Type), OmitEmpty: omitEmpty, OmitZero: omitZero})
	}
	return checkUnique(t, out)
}

func jsonOptions(t reflect.Type, f reflect.StructField, options string) (omitEmpty, omitZero bool) {
	for _, option := range strings.Split(options, ",") {
		switch option {
		case "":
		case "omitempty":
			omitEmpty = true
		case "omitzero":
			omitZero = true
		case "inline":
			// Only meaningful to Kubernetes' own tooling; encoding/json ignores it.
		default:
			fail("%s.%s has json option %q, which the table cannot describe", t, f.Name, option)
		}
	}
	return omitEmpty, omitZero
}

func checkUnique(t reflect.Type, fields []field) []field {
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.JSONName] {
			fail("%s has two fields named %q after flattening embedded structs", t, f.JSONName)
		}
		seen[f.JSONName] = true
	}
	return fields
}

func apiVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fail("no build information; run with `go run .`")
	}
	for _, dep := range info.Deps {
		if dep.Path == "k8s.io/api" {
			if dep.Replace != nil {
				return dep.Replace.Version
			}
			return dep.Version
		}
	}
	fail("k8s.io/api is not a dependency of this build")
	return ""
}

func render(root string, structs map[string][]field) string {
	var b strings.Builder
	version := apiVersion()
	fmt.Fprintf(&b, "// Code generated by packages/revision/tools/gen-field-table from k8s.io/api %s. DO NOT EDIT.\n", version)
	b.WriteString("// Regenerate: cd packages/revision/tools/gen-field-table && GOTOOLCHAIN=local go run . > ../../src/internal/pod-template-fields.generated.ts\n\n")
	b.WriteString("import type { GoStructTable } from './go-struct-table.ts';\n\n")
	b.WriteString("/** The k8s.io/api version whose Go types the table describes. */\n")
	fmt.Fprintf(&b, "export const FIELD_TABLE_K8S_API_VERSION = '%s';\n\n", version)
	b.WriteString("/** The Go type of a pod template (core/v1 PodTemplateSpec). */\n")
	fmt.Fprintf(&b, "export const POD_TEMPLATE_TYPE = '%s';\n\n", root)
	b.WriteString("/** The JSON fields of every Go struct reachable from core/v1 PodTemplateSpec, in declaration order. */\n")
	b.WriteString("export const POD_TEMPLATE_STRUCTS: GoStructTable = {\n")
	names := make([]string, 0, len(structs))
	for name := range structs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(&b, "  %s: [\n", name)
		for _, f := range structs[name] {
			omitZero := ""
			if f.OmitZero {
				omitZero = ", omitzero: true"
			}
			fmt.Fprintf(&b, "    { json: '%s', type: '%s', omitempty: %t%s },\n", f.JSONName, f.Type, f.OmitEmpty, omitZero)
		}
		b.WriteString("  ],\n")
	}
	b.WriteString("};\n")
	return b.String()
}
