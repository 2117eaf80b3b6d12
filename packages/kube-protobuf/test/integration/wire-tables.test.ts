/**
 * The committed wire tables must be what tools/gen-wire-tables generates now (a changed generator or
 * k8s.io/api version without regenerating, or a hand edit, fails here), and their field numbers must be
 * those of the upstream generated.proto files of the same module versions.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { WIRE_TABLES_K8S_API_VERSION } from '../../src/index.ts';
import { WIRE_STRUCTS } from '../../src/wire-tables.generated.ts';
import { buildGoProgram, runGoProgram } from './go-programs.ts';
import { parseProtoMessages } from './proto-messages.ts';

const TABLES = new URL('../../src/wire-tables.generated.ts', import.meta.url);
const GENERATOR = fileURLToPath(new URL('../../tools/gen-wire-tables/', import.meta.url));

/** Where the Go module cache (or the module proxy) has a module's sources. */
async function moduleDir(module: string): Promise<string> {
  const { stdout } = await promisify(execFile)('go', ['mod', 'download', '-json', module], {
    cwd: GENERATOR,
    env: { ...process.env, GOTOOLCHAIN: 'local' },
  });
  return (JSON.parse(stdout) as { Dir: string }).Dir;
}

/** The generated.proto of each table package prefix. */
const PROTO_FILES: Readonly<Record<string, readonly [module: 'api' | 'apimachinery', path: string]>> = {
  'core/v1': ['api', 'core/v1/generated.proto'],
  'apps/v1': ['api', 'apps/v1/generated.proto'],
  'meta/v1': ['apimachinery', 'pkg/apis/meta/v1/generated.proto'],
  runtime: ['apimachinery', 'pkg/runtime/generated.proto'],
};

/** The .proto type names a table type's values may have (`string`, `int64`, `PodSpec`, `Quantity`). */
function protoTypesOf(tableType: string): readonly string[] {
  const base = tableType.replace(/^(\*|\[\]|map\[string\])/, '');
  const special: Readonly<Record<string, readonly string[]>> = {
    RawJSON: ['RawExtension', 'FieldsV1'],
    Object: ['RawExtension'],
  };
  return special[base] ?? [base.split('.').at(-1) ?? base];
}

/** A field's value type without its package (`.k8s.io.apimachinery.pkg.api.resource.Quantity`: Quantity). */
function protoValueType(field: { readonly type: string }): string {
  const map = /^map<\s*string\s*,\s*([\w.]+)\s*>$/.exec(field.type);
  return (map?.[1] ?? field.type).split('.').at(-1) ?? '';
}

describe('the generated wire tables', () => {
  it('equal a fresh generation from the Go types', async () => {
    const fresh = await runGoProgram(await buildGoProgram('genWireTables'));
    const committed = await readFile(TABLES, 'utf8');
    expect(committed, 'regenerate: npm run generate -w @kruise-ts/kube-protobuf').toBe(fresh);
  }, 600_000);

  it('describe k8s.io/api and apimachinery v0.34.10 (Kubernetes v1.34.10), as the golden program does', async () => {
    expect(WIRE_TABLES_K8S_API_VERSION).toBe('v0.34.10');
    for (const module of ['../../tools/gen-wire-tables/go.mod', '../golden-go/go.mod']) {
      const goMod = await readFile(new URL(module, import.meta.url), 'utf8');
      expect(goMod, module).toMatch(/^\s*k8s\.io\/api v0\.34\.10$/m);
      expect(goMod, module).toMatch(/^\s*k8s\.io\/apimachinery v0\.34\.10$/m);
    }
  });

  it('have the field numbers, names and repetition of the upstream generated.proto', async () => {
    const dirs = {
      api: await moduleDir(`k8s.io/api@${WIRE_TABLES_K8S_API_VERSION}`),
      apimachinery: await moduleDir(`k8s.io/apimachinery@${WIRE_TABLES_K8S_API_VERSION}`),
    };
    const protos = new Map<string, ReturnType<typeof parseProtoMessages>>();
    for (const [prefix, [module, path]] of Object.entries(PROTO_FILES)) {
      protos.set(prefix, parseProtoMessages(await readFile(`${dirs[module]}/${path}`, 'utf8')));
    }
    let checked = 0;
    for (const [typeName, rows] of Object.entries(WIRE_STRUCTS)) {
      const [prefix = '', message = ''] = typeName.split('.');
      const proto = protos.get(prefix)?.get(message);
      expect(proto, `${typeName} in generated.proto`).toBeDefined();
      for (const [number, json, type] of rows) {
        const field = proto?.get(number);
        expect(field, `${typeName} field ${number} (${json})`).toBeDefined();
        if (json !== '') {
          expect(field?.name, `${typeName} field ${number}`).toBe(json);
        }
        const repeated = type.startsWith('[]') || type.startsWith('map[');
        expect(field?.repeated, `${typeName} field ${number} (${json}) repeated`).toBe(repeated);
        const protoType = field === undefined ? '' : protoValueType(field);
        expect(protoTypesOf(type), `${typeName} field ${number} (${json}): ${type} against ${protoType}`).toContain(
          protoType,
        );
        checked++;
      }
      // Every field of the .proto message is in the table: nothing on the wire is skipped unknowingly.
      expect(
        [...(proto?.keys() ?? [])].sort((a, b) => a - b),
        typeName,
      ).toEqual(rows.map((row) => row[0]));
    }
    expect(checked).toBeGreaterThan(500);
  }, 120_000);

  it('agree with generated.proto on the messages the decoder reads by hand', async () => {
    const apimachinery = await moduleDir(`k8s.io/apimachinery@${WIRE_TABLES_K8S_API_VERSION}`);
    const read = async (path: string) => parseProtoMessages(await readFile(`${apimachinery}/${path}`, 'utf8'));
    const meta = await read('pkg/apis/meta/v1/generated.proto');
    const runtime = await read('pkg/runtime/generated.proto');
    const resource = await read('pkg/api/resource/generated.proto');
    const intstr = await read('pkg/util/intstr/generated.proto');
    const fields = (messages: ReturnType<typeof parseProtoMessages>, name: string) =>
      Object.fromEntries([...(messages.get(name)?.entries() ?? [])].map(([n, f]) => [f.name, [n, f.type]]));
    // specials.ts, envelope.ts and watch-event.ts use these numbers.
    expect(fields(meta, 'Time')).toEqual({ seconds: [1, 'int64'], nanos: [2, 'int32'] });
    expect(fields(meta, 'MicroTime')).toEqual({ seconds: [1, 'int64'], nanos: [2, 'int32'] });
    expect(fields(meta, 'FieldsV1')).toEqual({ Raw: [1, 'bytes'] });
    expect(fields(meta, 'WatchEvent')).toEqual({
      type: [1, 'string'],
      object: [2, '.k8s.io.apimachinery.pkg.runtime.RawExtension'],
    });
    expect(fields(runtime, 'RawExtension')).toEqual({ raw: [1, 'bytes'] });
    expect(fields(runtime, 'TypeMeta')).toEqual({ apiVersion: [1, 'string'], kind: [2, 'string'] });
    expect(fields(runtime, 'Unknown')).toEqual({
      typeMeta: [1, 'TypeMeta'],
      raw: [2, 'bytes'],
      contentEncoding: [3, 'string'],
      contentType: [4, 'string'],
    });
    expect(fields(resource, 'Quantity')).toEqual({ string: [1, 'string'] });
    expect(fields(intstr, 'IntOrString')).toEqual({ type: [1, 'int64'], intVal: [2, 'int32'], strVal: [3, 'string'] });
  }, 120_000);
});
