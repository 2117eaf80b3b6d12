import type { V1PodSpec } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { restrictedViolations } from './pod-security-restricted.ts';

/** A fresh compliant spec each time, for a test to change. */
function compliant(): V1PodSpec {
  return {
    securityContext: { runAsNonRoot: true, runAsUser: 65532, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [
      {
        name: 'app',
        image: 'app',
        securityContext: {
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
        },
      },
    ],
    volumes: [{ name: 'tmp', emptyDir: {} }],
  };
}

describe('restrictedViolations', () => {
  it('accepts a compliant spec (seccomp and runAsNonRoot at pod level, NET_BIND_SERVICE added)', () => {
    expect(restrictedViolations(compliant())).toEqual([]);
  });

  it('names each missing restricted setting of a plain pod', () => {
    expect(restrictedViolations({ containers: [{ name: 'plain', image: 'x' }] })).toEqual([
      'container plain: allowPrivilegeEscalation must be false',
      'container plain: capabilities.drop must include ALL',
      'container plain: runAsNonRoot must be true (on the container or the pod)',
      'container plain: seccompProfile.type must be RuntimeDefault or Localhost (on the container or the pod), got none',
    ]);
  });

  it('rejects what baseline already forbids', () => {
    const spec = compliant();
    spec.hostNetwork = true;
    spec.hostPID = true;
    spec.volumes = [{ name: 'root', hostPath: { path: '/' } }];
    spec.securityContext = {
      runAsNonRoot: true,
      runAsUser: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
      sysctls: [{ name: 'kernel.msgmax', value: '1' }],
    };
    spec.containers = [
      {
        name: 'app',
        image: 'app',
        ports: [{ containerPort: 80, hostPort: 80 }],
        securityContext: {
          privileged: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] },
        },
      },
    ];
    expect(restrictedViolations(spec)).toEqual([
      'hostNetwork must not be true',
      'hostPID must not be true',
      'volume root has the disallowed type hostPath',
      'sysctl kernel.msgmax is not allowed',
      'container app: privileged must not be true',
      'container app: capabilities.add may only hold NET_BIND_SERVICE, not SYS_ADMIN',
      'container app: hostPort 80 is not allowed',
    ]);
  });

  it('rejects a container that overrides the pod with root or an unconfined seccomp profile', () => {
    const spec = compliant();
    spec.containers = [
      {
        name: 'app',
        image: 'app',
        securityContext: {
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
          runAsNonRoot: false,
          runAsUser: 0,
          seccompProfile: { type: 'Unconfined' },
        },
      },
    ];
    expect(restrictedViolations(spec)).toEqual([
      'container app: runAsNonRoot must be true (on the container or the pod)',
      'container app: runAsUser must not be 0',
      'container app: seccompProfile.type must be RuntimeDefault or Localhost (on the container or the pod), got Unconfined',
    ]);
  });

  it('checks init containers and the legacy AppArmor annotation too', () => {
    const spec = compliant();
    spec.initContainers = [{ name: 'init', image: 'x' }];
    expect(restrictedViolations(spec, { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' })).toEqual([
      'annotation container.apparmor.security.beta.kubernetes.io/app must not be unconfined',
      'initContainer init: allowPrivilegeEscalation must be false',
      'initContainer init: capabilities.drop must include ALL',
    ]);
  });
});
