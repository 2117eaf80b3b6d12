import { describe, expect, it } from 'vitest';

import { parseGoType, referencedStructs } from './go-struct-table.ts';
import {
  FIELD_TABLE_K8S_API_VERSION,
  POD_TEMPLATE_STRUCTS,
  POD_TEMPLATE_TYPE,
} from './pod-template-fields.generated.ts';

describe('parseGoType', () => {
  it.each<[string, unknown]>([
    ['string', { kind: 'string' }],
    ['*bool', { kind: 'pointer', elem: { kind: 'bool' } }],
    ['int32', { kind: 'int', min: -2147483648, max: 2147483647 }],
    ['[]Container', { kind: 'slice', elem: { kind: 'struct', name: 'Container' } }],
    ['map[string]Quantity', { kind: 'map', elem: { kind: 'Quantity' } }],
    [
      '*[]map[string]*Time',
      {
        kind: 'pointer',
        elem: { kind: 'slice', elem: { kind: 'map', elem: { kind: 'pointer', elem: { kind: 'Time' } } } },
      },
    ],
  ])('%s', (expression, expected) => {
    expect(parseGoType(expression)).toEqual(expected);
  });

  it.each(['chan int', 'map[int]string', 'interface{}', ''])('rejects %j', (expression) => {
    expect(() => parseGoType(expression)).toThrow(/unknown Go type expression/);
  });
});

describe('the generated pod template table', () => {
  const entries = Object.entries(POD_TEMPLATE_STRUCTS);

  it('comes from k8s.io/api v0.32.10 and starts at PodTemplateSpec', () => {
    expect(FIELD_TABLE_K8S_API_VERSION).toBe('v0.32.10');
    expect(POD_TEMPLATE_STRUCTS[POD_TEMPLATE_TYPE]?.map((field) => field.json)).toEqual(['metadata', 'spec']);
  });

  it('is closed: every struct a field refers to is in the table', () => {
    const missing = entries
      .flatMap(([, fields]) => fields.flatMap((field) => referencedStructs(parseGoType(field.type))))
      .filter((name) => !(name in POD_TEMPLATE_STRUCTS));
    expect(missing).toEqual([]);
  });

  it('uses no omitzero (Go 1.24), which OpenKruise v1.9 (Go 1.23) does not honour', () => {
    expect(
      entries.filter(([, fields]) => fields.some((field) => field.omitzero === true)).map(([name]) => name),
    ).toEqual([]);
  });

  it.each([
    { struct: 'ObjectMeta', json: 'creationTimestamp', type: 'Time', omitempty: true },
    { struct: 'Container', json: 'name', type: 'string', omitempty: false },
    { struct: 'Container', json: 'resources', type: 'ResourceRequirements', omitempty: true },
    { struct: 'ContainerPort', json: 'containerPort', type: 'int32', omitempty: false },
    { struct: 'PodSpec', json: 'containers', type: '[]Container', omitempty: false },
    { struct: 'PodSpec', json: 'automountServiceAccountToken', type: '*bool', omitempty: true },
    { struct: 'GRPCAction', json: 'service', type: '*string', omitempty: false },
    { struct: 'HTTPGetAction', json: 'port', type: 'IntOrString', omitempty: false },
    { struct: 'ResourceFieldSelector', json: 'divisor', type: 'Quantity', omitempty: true },
    { struct: 'Volume', json: 'emptyDir', type: '*EmptyDirVolumeSource', omitempty: true },
  ])('$struct.$json is $type (omitempty $omitempty)', ({ struct, json, type, omitempty }) => {
    expect(POD_TEMPLATE_STRUCTS[struct]?.find((field) => field.json === json)).toEqual({ json, type, omitempty });
  });
});
