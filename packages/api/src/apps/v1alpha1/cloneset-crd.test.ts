import { describe, expect, it } from 'vitest';

import { buildCustomResourceDefinition } from '../../crd/custom-resource-definition.ts';
import type { OpenApiSchema } from '../../crd/openapi-types.ts';
import { findStructuralViolations } from '../../crd/structural-schema.ts';
import { QUANTITY_STRING_PATTERN } from '../../meta/quantity.ts';
import { cloneSetCrdDefinition } from './cloneset-crd.ts';

const crd = buildCustomResourceDefinition(cloneSetCrdDefinition);
const [version] = crd.spec.versions;
const root = version?.schema.openAPIV3Schema ?? {};

/** The schema node at a dotted path; `[*]` steps into array items. */
function node(at: string): OpenApiSchema {
  let current: OpenApiSchema | undefined = root;
  for (const step of at.split('.')) {
    current = step === '[*]' ? current?.items : current?.properties?.[step];
  }
  if (current === undefined) {
    throw new Error(`no schema node at ${at}`);
  }
  return current;
}

function rulesAt(at: string): string[] {
  return (node(at)['x-kubernetes-validations'] ?? []).map(
    (validation) => validation.message ?? validation.messageExpression ?? '',
  );
}

describe('CloneSet CRD', () => {
  it('serves only v1alpha1 as the storage version, under OpenKruise names', () => {
    expect(crd.metadata.name).toBe('clonesets.apps.kruise.io');
    expect(crd.spec).toMatchObject({
      group: 'apps.kruise.io',
      scope: 'Namespaced',
      names: {
        kind: 'CloneSet',
        listKind: 'CloneSetList',
        plural: 'clonesets',
        singular: 'cloneset',
        shortNames: ['clone'],
      },
    });
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1alpha1', true, true]]);
  });

  it('has the status and scale subresources of OpenKruise', () => {
    expect(version?.subresources).toEqual({
      status: {},
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.labelSelector',
      },
    });
  });

  it('has the printer columns of OpenKruise, in order, with the wide ones at priority 1', () => {
    expect(
      version?.additionalPrinterColumns?.map(({ name, type, jsonPath, priority }) => [
        name,
        type,
        jsonPath,
        priority ?? 0,
      ]),
    ).toEqual([
      ['DESIRED', 'integer', '.spec.replicas', 0],
      ['UPDATED', 'integer', '.status.updatedReplicas', 0],
      ['UPDATED_READY', 'integer', '.status.updatedReadyReplicas', 0],
      ['UPDATED_AVAILABLE', 'integer', '.status.updatedAvailableReplicas', 0],
      ['READY', 'integer', '.status.readyReplicas', 0],
      ['TOTAL', 'integer', '.status.replicas', 0],
      ['AGE', 'date', '.metadata.creationTimestamp', 0],
      ['CONTAINERS', 'string', '.spec.template.spec.containers[*].name', 1],
      ['IMAGES', 'string', '.spec.template.spec.containers[*].image', 1],
      ['SELECTOR', 'string', '.status.labelSelector', 1],
    ]);
  });

  it('is structural', () => {
    expect(findStructuralViolations(root)).toEqual([]);
  });

  it.each([
    { at: 'spec.replicas', value: 1 },
    { at: 'spec.revisionHistoryLimit', value: 10 },
    { at: 'spec.updateStrategy', value: {} },
    { at: 'spec.updateStrategy.type', value: 'ReCreate' },
    { at: 'spec.updateStrategy.partition', value: 0 },
    { at: 'spec.updateStrategy.maxUnavailable', value: '20%' },
    { at: 'spec.updateStrategy.maxSurge', value: 0 },
  ])('defaults $at to $value', ({ at, value }) => {
    expect(node(at).default).toEqual(value);
  });

  it.each([
    'spec.minReadySeconds',
    'spec.progressDeadlineSeconds',
    'spec.scaleStrategy',
    'spec.updateStrategy.inPlaceUpdateStrategy',
  ])('does not default %s', (at) => {
    expect(node(at)).not.toHaveProperty('default');
  });

  it('keeps unknown fields in the pod and PVC templates, and declares the fields the rules read', () => {
    for (const at of [
      'spec.template',
      'spec.template.metadata',
      'spec.template.spec',
      'spec.volumeClaimTemplates.[*]',
    ]) {
      expect(node(at)).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    }
    expect(node('spec.template.spec.restartPolicy').enum).toEqual(['Always']);
    expect(node('spec.template.metadata.labels').type).toBe('object');
    expect(node('spec')).not.toHaveProperty('x-kubernetes-preserve-unknown-fields');
  });

  it.each([
    { at: 'spec', says: 'spec.template.metadata.labels: `selector` does not match template `labels`' },
    { at: 'spec', says: 'spec.progressDeadlineSeconds: must be greater than minReadySeconds' },
    { at: 'spec', says: 'spec.updateStrategy.maxSurge: can not use maxSurge with strategy type InPlaceOnly' },
    {
      at: 'spec',
      says: 'spec.updateStrategy.maxUnavailable: maxUnavailable and maxSurge should not both be less than 1',
    },
    { at: 'spec.selector', says: 'spec.selector: empty selector is invalid for cloneset' },
    { at: 'spec.selector', says: 'spec.selector: field is immutable' },
    {
      at: 'spec.template.spec',
      says: 'spec.template.spec.activeDeadlineSeconds: activeDeadlineSeconds in cloneset is not supported',
    },
    { at: 'spec.updateStrategy.type', says: 'OnDelete is not supported in apps.kruise.io/v1alpha1' },
    { at: 'spec.updateStrategy.partition', says: "'spec.updateStrategy.partition: must be a non-negative integer" },
    {
      at: 'spec.updateStrategy.maxUnavailable',
      says: "'spec.updateStrategy.maxUnavailable: must be a non-negative integer",
    },
    { at: 'spec.updateStrategy.maxSurge', says: "'spec.updateStrategy.maxSurge: must be a non-negative integer" },
    {
      at: 'spec.scaleStrategy.maxUnavailable',
      says: "'spec.scaleStrategy.maxUnavailable: must be a non-negative integer",
    },
    {
      at: 'spec.updateStrategy.priorityStrategy',
      says: 'priorityStrategy: only one of weightPriority and orderPriority can be used',
    },
    {
      at: 'spec.updateStrategy.priorityStrategy.weightPriority.[*]',
      says: 'weightPriority[].matchSelector: selector can not be empty',
    },
    {
      at: 'spec.selector.matchExpressions.[*]',
      says: 'matchExpressions[].values: must be non-empty for operators In and NotIn',
    },
  ])('has the rule "$says" on $at', ({ at, says }) => {
    expect(rulesAt(at).some((message) => message.includes(says))).toBe(true);
  });

  it('rejects duplicates with list types instead of CEL', () => {
    expect(node('spec.scaleStrategy.podsToDelete')['x-kubernetes-list-type']).toBe('set');
    expect(node('spec.updateStrategy.scatterStrategy')).toMatchObject({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['key', 'value'],
    });
    expect(node('status.conditions')).toMatchObject({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    });
  });

  it('bounds what the selector rules iterate, so their CEL cost stays within budget', () => {
    expect(node('spec.selector.matchLabels').maxProperties).toBe(64);
    expect(node('spec.selector.matchExpressions').maxItems).toBe(64);
    expect(node('spec.selector.matchExpressions.[*].values').maxItems).toBe(256);
    expect(node('spec.updateStrategy.priorityStrategy.weightPriority').maxItems).toBe(100);
  });

  it('requires a pod spec with at least one container, as ValidatePodTemplateSpec does', () => {
    expect(node('spec.template').required).toEqual(['spec']);
    expect(node('spec.template.spec').required).toEqual(['containers']);
    expect(node('spec.template.spec.containers')).toMatchObject({ type: 'array', minItems: 1, maxItems: 128 });
    expect(node('spec.template.spec.initContainers')).not.toHaveProperty('minItems');
  });

  describe.each(['containers', 'initContainers'])('spec.template.spec.%s[]', (list) => {
    const at = (field: string): OpenApiSchema => node(`spec.template.spec.${list}.[*].${field}`);

    it('keeps undeclared container fields, and requires the name', () => {
      expect(node(`spec.template.spec.${list}.[*]`)).toMatchObject({
        'x-kubernetes-preserve-unknown-fields': true,
        required: ['name'],
      });
    });

    it.each([
      { field: 'name', type: 'string' },
      { field: 'image', type: 'string' },
      { field: 'imagePullPolicy', type: 'string' },
      { field: 'command.[*]', type: 'string' },
      { field: 'args.[*]', type: 'string' },
      { field: 'ports.[*].containerPort', type: 'integer' },
      { field: 'ports.[*].hostPort', type: 'integer' },
      { field: 'ports.[*].name', type: 'string' },
      { field: 'ports.[*].protocol', type: 'string' },
      { field: 'env.[*].name', type: 'string' },
      { field: 'env.[*].value', type: 'string' },
    ])('types $field as $type (no bounds a Pod does not have)', ({ field, type }) => {
      expect(at(field).type).toBe(type);
      expect(at(field)).not.toHaveProperty('minimum');
      if (field !== 'name') {
        expect(at(field)).not.toHaveProperty('minLength');
      }
    });

    it('accepts null items in command and args, as a Pod does (Go reads them as "")', () => {
      expect(at('command.[*]')).toMatchObject({ type: 'string', nullable: true });
      expect(at('args.[*]')).toMatchObject({ type: 'string', nullable: true });
    });

    it('requires containerPort and the env name, and keeps valueFrom and the rest as written', () => {
      expect(at('ports.[*]')).toMatchObject({
        required: ['containerPort'],
        'x-kubernetes-preserve-unknown-fields': true,
      });
      expect(at('env.[*]')).toMatchObject({ required: ['name'], 'x-kubernetes-preserve-unknown-fields': true });
      expect(at('ports.[*].containerPort').format).toBe('int32');
    });

    it.each(['requests', 'limits'])(
      'checks resources.%s as quantities: any number, or a string in the quantity format',
      (field) => {
        expect(at('resources')).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
        expect(at(`resources.${field}`).additionalProperties).toEqual({
          description: expect.any(String) as string,
          nullable: true,
          pattern: QUANTITY_STRING_PATTERN,
          'x-kubernetes-preserve-unknown-fields': true,
        });
      },
    );
  });

  it('types template annotations as strings, and PVC template storage as quantities', () => {
    expect(node('spec.template.metadata.annotations')).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string', nullable: true },
    });
    expect(node('spec.volumeClaimTemplates.[*].spec')).toMatchObject({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
    for (const field of ['requests', 'limits']) {
      expect(node(`spec.volumeClaimTemplates.[*].spec.resources.${field}`).additionalProperties).toMatchObject({
        pattern: QUANTITY_STRING_PATTERN,
      });
    }
  });

  it('requires what OpenKruise requires', () => {
    expect(root.required).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(node('spec').required).toEqual(['selector', 'template']);
    expect(node('status').required).toEqual([
      'availableReplicas',
      'readyReplicas',
      'replicas',
      'updatedReadyReplicas',
      'updatedReplicas',
    ]);
  });
});
