/**
 * OpenKruise's kruise-manager flags that kruise-ts accepts, so that a command line or a Helm values
 * file written for OpenKruise keeps working instead of exiting with a usage error: each is either an
 * alias of one of our flags, or accepted and ignored (validated, with a warning saying so).
 */
import { z } from 'zod';

import { goDurationSchema } from '@kruise-ts/controller-runtime';
import type { FlagAlias, FlagCompat, IgnoredFlag } from '@kruise-ts/controller-runtime';

const alias = (to: string): FlagAlias => ({ kind: 'alias', to });
const ignored = (takes: IgnoredFlag['takes'], instead: string, schema?: z.ZodType): IgnoredFlag => ({
  kind: 'ignored',
  takes,
  instead,
  ...(schema === undefined ? {} : { schema }),
});

/** OpenKruise v1.9 `main.go` flags (and the klog flags its chart passes) and what they become here. */
export const OPENKRUISE_MANAGER_FLAGS: FlagCompat = {
  program: 'OpenKruise',
  flags: {
    'enable-leader-election': alias('leader-elect'),
    'metrics-addr': alias('metrics-bind-address'),
    'health-probe-addr': alias('health-probe-bind-address'),
    'rest-config-qps': alias('kube-api-qps'),
    'rest-config-burst': alias('kube-api-burst'),
    'controller-cache-sync-timeout': alias('cache-sync-timeout'),
    'leader-election-resource-lock': ignored(
      'value',
      'kruise-ts always uses a Lease',
      z.literal('leases', { error: 'kruise-ts supports only leases' }),
    ),
    'sync-period': ignored(
      'value',
      'kruise-ts has no periodic resync; reconcilers ask to be requeued when time matters',
      goDurationSchema.or(z.literal('')),
    ),
    'enable-pprof': ignored('boolean', 'kruise-ts serves no pprof endpoint (use node --inspect or --cpu-prof)'),
    'pprof-addr': ignored('value', 'kruise-ts serves no pprof endpoint (use node --inspect or --cpu-prof)'),
    'webhook-initialize-timeout': ignored(
      'value',
      'kruise-ts apps serve their webhooks as soon as the server listens; nothing waits for webhook configurations',
      goDurationSchema,
    ),
    'allow-privileged': ignored('boolean', 'kruise-ts runs no privileged ImagePullJob pods'),
    'default-ttlseconds-for-always-nodeimage': ignored(
      'value',
      'kruise-ts has no NodeImage controller',
      z.string().regex(/^\d+$/, 'expected a number of seconds'),
    ),
    'disable-no-deepcopy': ignored('boolean', 'kruise-ts caches hand out read-only objects and never copy them'),
    logtostderr: ignored('boolean', 'kruise-ts always logs to stdout'),
    v: ignored(
      'value',
      'use --log-level (debug, info, warn, error)',
      z.string().regex(/^\d+$/, 'expected a klog verbosity such as 4'),
    ),
    'logging-format': ignored('value', 'use --log-format (json or text)'),
  },
};
