import { describe, expect, it } from 'vitest';

import * as names from './well-known-labels.ts';

// The exact keys OpenKruise and Kubernetes use (spec §1.1, §2): a typo here would make our controller
// and OpenKruise's disagree about the same pods.
describe('well-known labels and annotations', () => {
  it.each([
    ['CLONESET_INSTANCE_ID_LABEL', 'apps.kruise.io/cloneset-instance-id'],
    ['CONTROLLER_REVISION_HASH_LABEL', 'controller-revision-hash'],
    ['POD_TEMPLATE_HASH_LABEL', 'pod-template-hash'],
    ['SPECIFIED_DELETE_LABEL', 'apps.kruise.io/specified-delete'],
    ['IN_PLACE_UPDATE_STATE_ANNOTATION', 'apps.kruise.io/inplace-update-state'],
    ['IN_PLACE_UPDATE_STATE_ANNOTATION_LEGACY', 'inplace-update-state'],
    ['IN_PLACE_UPDATE_GRACE_ANNOTATION', 'apps.kruise.io/inplace-update-grace'],
    ['IN_PLACE_UPDATE_GRACE_ANNOTATION_LEGACY', 'inplace-update-grace'],
    ['RUNTIME_CONTAINERS_META_ANNOTATION', 'apps.kruise.io/runtime-containers-meta'],
    ['POD_DELETION_COST_ANNOTATION', 'controller.kubernetes.io/pod-deletion-cost'],
    ['CONTAINER_LAUNCH_PRIORITY_ANNOTATION', 'apps.kruise.io/container-launch-priority'],
    ['CONTROLLER_REVISION_HASH_KEY', 'controller.kubernetes.io/hash'],
    ['VOLUME_CLAIM_TEMPLATES_HASH_ANNOTATION', 'kruise.io/cloneset-volumeclaimtemplate-hash'],
    ['IMAGE_PRE_DOWNLOAD_CREATED_LABEL', 'apps.kruise.io/pre-predownload-created'],
    ['IMAGE_PRE_DOWNLOAD_IGNORED_LABEL', 'apps.kruise.io/image-predownload-ignored'],
    ['CLONESET_SCALING_EXCLUDE_PREPARING_DELETE_LABEL', 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete'],
    ['IMAGE_PRE_DOWNLOAD_PARALLELISM_ANNOTATION', 'apps.kruise.io/image-predownload-parallelism'],
    ['IMAGE_PRE_DOWNLOAD_TIMEOUT_SECONDS_ANNOTATION', 'apps.kruise.io/image-predownload-timeout-seconds'],
    ['IMAGE_PRE_DOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION', 'apps.kruise.io/image-predownload-min-updated-ready-pods'],
    ['DELETE_PROTECTION_LABEL', 'policy.kruise.io/delete-protection'],
  ])('%s is %s', (name, value) => {
    expect((names as Record<string, unknown>)[name]).toBe(value);
  });
});
