import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Versions of the control-plane tools. Each one must equal the `require` line of its Go tools module
 * under `tools/local-cluster/go/`; a unit test keeps the two in step.
 *
 * Kubernetes is pinned to the newest 1.34 patch that both the Go module proxy and the checksum
 * database serve here (v1.34.11 and v1.34.12 are on the proxy but missing from sum.golang.org, so
 * `go mod tidy` refuses them). 1.34 has in-place pod resize on by default and a kubectl skew of
 * one minor version to the 1.33 client installed on these machines.
 */
export const KUBERNETES_VERSION = 'v1.34.10';
export const ETCD_VERSION = 'v3.6.16';
export const KWOK_VERSION = 'v0.8.0';
export const HELM_VERSION = 'v4.3.1';

/** What one Go tools module builds and how. */
export interface GoToolSpec {
  /** Name used in logs, errors and the cache key. */
  readonly name: string;
  readonly version: string;
  /** Directory of the tools module (holds go.mod and go.sum). */
  readonly moduleDir: string;
  /** Package to build, relative to the module (`.`) or a module path. */
  readonly packagePath: string;
  /** File name of the binary in the cache. */
  readonly binary: string;
  /** Extra names for the same binary (symlinks); a multi-call binary dispatches on them. */
  readonly aliases: readonly string[];
  readonly ldflags: readonly string[];
}

const goModulesRoot = fileURLToPath(new URL('../../go/', import.meta.url));

function versionStampFlags(): string[] {
  const match = /^v(\d+)\.(\d+)\./.exec(KUBERNETES_VERSION);
  const [major, minor] = [match?.[1] ?? '0', match?.[2] ?? '0'];
  // Upstream's hack/lib/version.sh stamps both packages; without them /version says v0.0.0-master and
  // Helm's kubeVersion checks and kubectl's skew warnings misread the server.
  return ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => [
    `-X ${pkg}.gitVersion=${KUBERNETES_VERSION}`,
    `-X ${pkg}.gitMajor=${major}`,
    `-X ${pkg}.gitMinor=${minor}`,
    `-X ${pkg}.gitTreeState=clean`,
    `-X ${pkg}.buildDate=1970-01-01T00:00:00Z`,
  ]);
}

/** The four tools every local cluster needs, in build order (fast ones first). */
export function defaultToolSpecs(modulesRoot: string = goModulesRoot): GoToolSpec[] {
  return [
    {
      name: 'etcd',
      version: ETCD_VERSION,
      moduleDir: path.join(modulesRoot, 'etcd'),
      packagePath: 'go.etcd.io/etcd/server/v3',
      binary: 'etcd',
      aliases: [],
      ldflags: ['-s', '-w'],
    },
    {
      name: 'kwok',
      version: KWOK_VERSION,
      moduleDir: path.join(modulesRoot, 'kwok'),
      packagePath: 'sigs.k8s.io/kwok/cmd/kwok',
      binary: 'kwok',
      aliases: [],
      ldflags: ['-s', '-w'],
    },
    {
      name: 'helm',
      version: HELM_VERSION,
      moduleDir: path.join(modulesRoot, 'helm'),
      packagePath: 'helm.sh/helm/v4/cmd/helm',
      binary: 'helm',
      aliases: [],
      ldflags: ['-s', '-w', `-X helm.sh/helm/v4/internal/version.version=${HELM_VERSION}`],
    },
    {
      name: 'kube',
      version: KUBERNETES_VERSION,
      moduleDir: path.join(modulesRoot, 'kube'),
      packagePath: '.',
      binary: 'kube',
      aliases: ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'],
      ldflags: ['-s', '-w', ...versionStampFlags()],
    },
  ];
}
