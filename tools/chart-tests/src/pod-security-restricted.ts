/**
 * The Pod Security Standards "restricted" profile (which includes "baseline"), as the PodSecurity
 * admission plugin checks it (kubernetes/website content/en/docs/concepts/security/pod-security-standards.md,
 * version "latest"), for pod specs rendered by the chart. The install test additionally lets the real
 * API server judge the pods; this check names every violation of a rendered spec without a cluster.
 */
import type { V1Container, V1PodSpec, V1SecurityContext, V1Volume } from '@kubernetes/client-node';

/** Volume types the restricted profile allows. */
const ALLOWED_VOLUME_TYPES = new Set([
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
]);

/** Sysctls the baseline profile allows. */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]);

const ALLOWED_SECCOMP = new Set(['RuntimeDefault', 'Localhost']);

interface NamedContainer {
  readonly where: string;
  readonly container: V1Container;
}

function allContainers(spec: V1PodSpec): NamedContainer[] {
  const named = (kind: string, list: readonly V1Container[] | undefined): NamedContainer[] =>
    (list ?? []).map((container) => ({ where: `${kind} ${container.name}`, container }));
  return [
    ...named('container', spec.containers),
    ...named('initContainer', spec.initContainers),
    ...named('ephemeralContainer', spec.ephemeralContainers),
  ];
}

function hostNamespaceViolations(spec: V1PodSpec): string[] {
  const found: string[] = [];
  if (spec.hostNetwork === true) {
    found.push('hostNetwork must not be true');
  }
  if (spec.hostPID === true) {
    found.push('hostPID must not be true');
  }
  if (spec.hostIPC === true) {
    found.push('hostIPC must not be true');
  }
  if (spec.securityContext?.windowsOptions?.hostProcess === true) {
    found.push('pod windowsOptions.hostProcess must not be true');
  }
  return found;
}

function volumeType(volume: V1Volume): string {
  return Object.keys(volume).find((key) => key !== 'name') ?? '(none)';
}

function volumeViolations(spec: V1PodSpec): string[] {
  return (spec.volumes ?? [])
    .filter((volume) => !ALLOWED_VOLUME_TYPES.has(volumeType(volume)))
    .map((volume) => `volume ${volume.name} has the disallowed type ${volumeType(volume)}`);
}

/** A rule of the profile: the message when `broken` holds. */
interface Rule<T> {
  readonly broken: (subject: T) => boolean;
  readonly message: string;
}

function brokenRules<T>(subject: T, rules: readonly Rule<T>[], prefix = ''): string[] {
  return rules.filter((rule) => rule.broken(subject)).map((rule) => `${prefix}${rule.message}`);
}

const hasSeLinuxUserOrRole = (context: { seLinuxOptions?: { user?: string; role?: string } } | undefined): boolean =>
  context?.seLinuxOptions?.user !== undefined || context?.seLinuxOptions?.role !== undefined;

const POD_CONTEXT_RULES: readonly Rule<V1PodSpec['securityContext']>[] = [
  { broken: (context) => context?.runAsUser === 0, message: 'pod runAsUser must not be 0' },
  {
    broken: (context) => context?.appArmorProfile?.type === 'Unconfined',
    message: 'pod appArmorProfile must not be Unconfined',
  },
  { broken: hasSeLinuxUserOrRole, message: 'pod seLinuxOptions user and role must be unset' },
];

function podContextViolations(spec: V1PodSpec): string[] {
  const context = spec.securityContext;
  const unsafe = (context?.sysctls ?? [])
    .filter((sysctl) => !SAFE_SYSCTLS.has(sysctl.name))
    .map((sysctl) => `sysctl ${sysctl.name} is not allowed`);
  const seccomp = context?.seccompProfile?.type;
  const badSeccomp =
    seccomp !== undefined && !ALLOWED_SECCOMP.has(seccomp) ? [`pod seccompProfile.type ${seccomp} is not allowed`] : [];
  return [...brokenRules(context, POD_CONTEXT_RULES), ...unsafe, ...badSeccomp];
}

function capabilityViolations(where: string, context: V1SecurityContext | undefined): string[] {
  const found: string[] = [];
  if (!(context?.capabilities?.drop ?? []).includes('ALL')) {
    found.push(`${where}: capabilities.drop must include ALL`);
  }
  const added = (context?.capabilities?.add ?? []).filter((capability) => capability !== 'NET_BIND_SERVICE');
  if (added.length > 0) {
    found.push(`${where}: capabilities.add may only hold NET_BIND_SERVICE, not ${added.join(', ')}`);
  }
  return found;
}

const PRIVILEGE_RULES: readonly Rule<V1SecurityContext | undefined>[] = [
  { broken: (context) => context?.privileged === true, message: 'privileged must not be true' },
  {
    broken: (context) => context?.allowPrivilegeEscalation !== false,
    message: 'allowPrivilegeEscalation must be false',
  },
  {
    broken: (context) => context?.procMount !== undefined && context.procMount !== 'Default',
    message: 'procMount must be Default',
  },
  {
    broken: (context) => context?.windowsOptions?.hostProcess === true,
    message: 'windowsOptions.hostProcess must not be true',
  },
  {
    broken: (context) => context?.appArmorProfile?.type === 'Unconfined',
    message: 'appArmorProfile must not be Unconfined',
  },
  { broken: hasSeLinuxUserOrRole, message: 'seLinuxOptions user and role must be unset' },
];

function privilegeViolations(where: string, context: V1SecurityContext | undefined): string[] {
  return brokenRules(context, PRIVILEGE_RULES, `${where}: `);
}

interface EffectiveIdentity {
  readonly container: V1SecurityContext | undefined;
  readonly pod: V1PodSpec['securityContext'];
}

const IDENTITY_RULES: readonly Rule<EffectiveIdentity>[] = [
  {
    broken: ({ container, pod }) =>
      container?.runAsNonRoot === false || (container?.runAsNonRoot !== true && pod?.runAsNonRoot !== true),
    message: 'runAsNonRoot must be true (on the container or the pod)',
  },
  { broken: ({ container }) => container?.runAsUser === 0, message: 'runAsUser must not be 0' },
];

function identityViolations(spec: V1PodSpec, { where, container }: NamedContainer): string[] {
  const identity: EffectiveIdentity = { container: container.securityContext, pod: spec.securityContext };
  const seccomp = container.securityContext?.seccompProfile?.type ?? spec.securityContext?.seccompProfile?.type;
  const badSeccomp =
    seccomp === undefined || !ALLOWED_SECCOMP.has(seccomp)
      ? [
          `${where}: seccompProfile.type must be RuntimeDefault or Localhost (on the container or the pod), got ${seccomp ?? 'none'}`,
        ]
      : [];
  return [...brokenRules(identity, IDENTITY_RULES, `${where}: `), ...badSeccomp];
}

function hostPortViolations({ where, container }: NamedContainer): string[] {
  return (container.ports ?? [])
    .filter((port) => (port.hostPort ?? 0) !== 0)
    .map((port) => `${where}: hostPort ${port.hostPort ?? 0} is not allowed`);
}

/**
 * Every way `spec` breaks the restricted profile, one readable line each; empty when it complies.
 * `annotations` are the pod's (for the legacy AppArmor annotations).
 */
export function restrictedViolations(spec: V1PodSpec, annotations: Readonly<Record<string, string>> = {}): string[] {
  const appArmor = Object.entries(annotations)
    .filter(
      ([key, value]) => key.startsWith('container.apparmor.security.beta.kubernetes.io/') && value === 'unconfined',
    )
    .map(([key]) => `annotation ${key} must not be unconfined`);
  const containers = allContainers(spec).flatMap((named) => [
    ...privilegeViolations(named.where, named.container.securityContext),
    ...capabilityViolations(named.where, named.container.securityContext),
    ...identityViolations(spec, named),
    ...hostPortViolations(named),
  ]);
  return [
    ...hostNamespaceViolations(spec),
    ...volumeViolations(spec),
    ...podContextViolations(spec),
    ...appArmor,
    ...containers,
  ];
}
