import { loadAllYaml } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_JOB_RUN_MS,
  DEFAULT_RESTART_BACKOFF_MS,
  SIMULATED_JOB_POD_ANNOTATIONS,
  simulatedJobRunAnnotations,
} from './kwok-job-stages.ts';
import { renderKwokStages } from './kwok-stages.ts';

interface StageDoc {
  metadata: { name: string };
  spec: {
    selector: { matchExpressions: { key: string; operator: string; values: string[] }[] };
    delay?: { durationMilliseconds?: number; durationFrom?: { jq: { expression: string } } };
    steps: { patch?: { subresource: string; type: string; template: string } }[];
  };
}

function stage(name: string): StageDoc {
  const found = (loadAllYaml(renderKwokStages({ kubeletVersion: 'v1.34.10' })) as StageDoc[]).find(
    (s) => s.metadata.name === name,
  );
  if (found === undefined) {
    throw new Error(`no stage ${name}`);
  }
  return found;
}

const selectors = (s: StageDoc): string[] => s.spec.selector.matchExpressions.map((e) => e.key);
const template = (s: StageDoc): string => s.spec.steps.map((step) => step.patch?.template ?? '').join('');

describe('job pod stages', () => {
  it('select job pods by restart policy first, so pods with restartPolicy Always never match', () => {
    expect(selectors(stage('kruise-ts-pod-exit'))[0]).toBe(
      '.spec.restartPolicy == "Never" or .spec.restartPolicy == "OnFailure"',
    );
    expect(selectors(stage('kruise-ts-pod-restart'))[0]).toBe('.spec.restartPolicy == "OnFailure"');
    for (const name of ['kruise-ts-pod-exit', 'kruise-ts-pod-restart']) {
      expect(selectors(stage(name)).join(' ')).not.toContain('Always');
      expect(
        stage(name).spec.selector.matchExpressions.every((e) => e.operator === 'In' && e.values.join() === 'true'),
      ).toBe(true);
    }
  });

  it('end an attempt only while every container runs, and restart only exited containers of running pods', () => {
    expect(selectors(stage('kruise-ts-pod-exit'))).toEqual(
      expect.arrayContaining([
        '.metadata.deletionTimestamp == null',
        '.status.phase == "Running"',
        '(.status.containerStatuses // []) | length > 0 and all(.[]; .state.running != null)',
      ]),
    );
    expect(selectors(stage('kruise-ts-pod-restart'))).toEqual(
      expect.arrayContaining([
        '.metadata.deletionTimestamp == null',
        '.status.phase == "Running"',
        'any(.status.containerStatuses[]?; .state.running == null)',
      ]),
    );
  });

  it("time the end of an attempt from the containers' start and the run-ms annotation, defaulting to one second", () => {
    const delay = stage('kruise-ts-pod-exit').spec.delay;
    expect(delay?.durationMilliseconds).toBe(DEFAULT_JOB_RUN_MS);
    const expression = delay?.durationFrom?.jq.expression ?? '';
    expect(expression).toContain(
      `(.metadata.annotations // {})["sim.kruise-ts.io/run-ms"] | tonumber? // ${String(DEFAULT_JOB_RUN_MS)}`,
    );
    expect(expression).toContain('([.status.containerStatuses[].state.running.startedAt] | max) as $started');
    // Never early: at first sight the full run time, later at most to the end of the recorded second plus it.
    expect(expression).toContain(
      '"\\(([$run, ($started | fromdate) * 1000 + 1000 + $run - now * 1000] | min | floor))ms"',
    );
  });

  it('restart at once after the first failure, then after a doubling backoff of at least 100 ms, capped at 30 times', () => {
    const expression = stage('kruise-ts-pod-restart').spec.delay?.durationFrom?.jq.expression ?? '';
    expect(expression).toContain(
      `["sim.kruise-ts.io/restart-backoff-ms"] | tonumber? // ${String(DEFAULT_RESTART_BACKOFF_MS)}), 100] | max) as $base`,
    );
    expect(expression).toContain(
      'if $restarts == 0 then 0 else ([$base * pow(2; $restarts - 1), $base * 30] | min) end',
    );
    expect(expression).toContain('(.state.terminated // .lastState.terminated).finishedAt] | max) as $exited');
    expect(expression).toContain(
      '"\\(([$backoff, ($exited | fromdate) * 1000 + 1000 + $backoff - now * 1000] | min | floor))ms"',
    );
  });

  it('decide the attempt from the outcome and failures annotations and the restart count', () => {
    const text = template(stage('kruise-ts-pod-exit'));
    expect(text).toContain('(eq (toString (dig "sim.kruise-ts.io/outcome" "" $annotations)) "fail")');
    expect(text).toContain('(lt $attempt $failures)');
    expect(text).toContain('{{- $restarts := and $failed (eq .spec.restartPolicy "OnFailure") }}');
    expect(text).toContain('{{ $phase = "Failed" }}{{ $exitCode = 1 }}{{ $exitReason = "Error" }}');
    expect(text).toContain('{{- $exitReason := "Completed" }}');
    expect(text.trimEnd()).toMatch(/phase: \{\{ \$phase \}\}$/);
  });

  it("write the kubelet's terminal conditions, and not-ready ones while an OnFailure pod waits to restart", () => {
    const text = template(stage('kruise-ts-pod-exit'));
    expect(text).toContain('reason: {{ if $failed }}PodFailed{{ else }}PodCompleted{{ end }}');
    expect(text).toContain('reason: ContainersNotReady');
    expect(text).toContain('reason: CrashLoopBackOff');
    expect(text).toMatch(/- type: PodReadyToStartContainers\n\s+status: "False"/);
    const restart = template(stage('kruise-ts-pod-restart'));
    expect(restart).toContain('restartCount: {{ $count }}');
    expect(restart).toContain('{{- $count := add1 (int64 (dig "restartCount" 0 $old)) }}');
    expect(restart).toContain(
      'terminated: {{ toJson (dig "state" "terminated" (dig "lastState" "terminated" dict $old) $old) }}',
    );
    expect(restart).toContain('{{- $gatesReady := true }}');
  });

  it('keep an image change or resize of a crashed job pod for its restart, which takes images and resources from the spec', () => {
    expect(selectors(stage('kruise-ts-pod-containers'))).toContain(
      'all(.status.containerStatuses[]?; .state.running != null)',
    );
    const restart = template(stage('kruise-ts-pod-restart'));
    expect(restart).toContain('imageID: {{ printf "sim.kruise-ts.io/image@sha256:%s" (sha256sum $c.image) | Quote }}');
    expect(restart).toContain('resources: {{ toJson . }}');
  });

  it('leave the existing pod stages unable to touch an ended pod: they all require phase Running or Pending', () => {
    for (const name of ['kruise-ts-pod-start', 'kruise-ts-pod-ready', 'kruise-ts-pod-containers']) {
      expect(selectors(stage(name)).some((key) => /^\.status\.phase == "(Running|Pending)"$/.test(key))).toBe(true);
    }
  });
});

describe('simulatedJobRunAnnotations', () => {
  it('writes only what is asked for, as strings', () => {
    expect(simulatedJobRunAnnotations({})).toEqual({});
    expect(simulatedJobRunAnnotations({ runMs: 0, outcome: 'fail', failures: 2, restartBackoffMs: 100 })).toEqual({
      'sim.kruise-ts.io/run-ms': '0',
      'sim.kruise-ts.io/outcome': 'fail',
      'sim.kruise-ts.io/failures': '2',
      'sim.kruise-ts.io/restart-backoff-ms': '100',
    });
    expect(Object.values(SIMULATED_JOB_POD_ANNOTATIONS).every((key) => key.startsWith('sim.kruise-ts.io/'))).toBe(true);
  });
});
