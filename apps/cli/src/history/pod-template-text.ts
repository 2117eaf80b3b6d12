/**
 * A revision's pod template as `kubectl rollout history --revision N` prints it (kubectl's
 * DescribePodTemplate): labels, annotations, containers with image, ports, command, environment and
 * mounts, and volumes. Values are aligned per block, as kubectl's tabwriter aligns them.
 */
import type { ContainerView, TemplateView } from './revision-template.ts';
import { tabulate } from './tabulate.ts';

const NONE = '<none>';

export function podTemplateText(template: TemplateView): string {
  const { spec } = template;
  const lines = [
    'Pod Template:',
    ...field('  Labels:', mapLines(template.metadata?.labels, '=')),
    ...field('  Annotations:', mapLines(template.metadata?.annotations, ': ')),
    ...(spec.serviceAccountName === undefined ? [] : [`  Service Account:\t${spec.serviceAccountName}`]),
    ...containersSection('Init Containers', spec.initContainers ?? []),
    ...containersSection('Containers', spec.containers),
    ...field(
      '  Volumes:',
      (spec.volumes ?? []).map((volume) => `${volume.name} (${volumeType(volume)})`),
    ),
  ];
  return `${tabulate(lines)}\n`;
}

/** `label:\tfirst` and `\tnext` for each further value: the values share one column. */
function field(label: string, values: readonly string[]): string[] {
  const [first = NONE, ...rest] = values;
  const indent = label.slice(0, label.length - label.trimStart().length);
  return [`${label}\t${first}`, ...rest.map((value) => `${indent}\t${value}`)];
}

function mapLines(map: Readonly<Record<string, string>> | undefined, separator: string): string[] {
  return Object.entries(map ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}${separator}${value}`);
}

function containersSection(title: string, containers: readonly ContainerView[]): string[] {
  if (containers.length === 0) {
    return title === 'Containers' ? [`  ${title}:\t${NONE}`] : [];
  }
  return [`  ${title}:`, ...containers.flatMap(containerLines)];
}

function containerLines(container: ContainerView): string[] {
  const ports = (container.ports ?? []).map((port) => `${port.containerPort}/${port.protocol ?? 'TCP'}`);
  return [
    `   ${container.name}:`,
    `    Image:\t${container.image ?? NONE}`,
    `    ${ports.length > 1 ? 'Ports' : 'Port'}:\t${ports.length === 0 ? NONE : ports.join(', ')}`,
    ...listField('Command', container.command),
    ...listField('Args', container.args),
    ...field(
      '    Environment:',
      (container.env ?? []).map(
        (env) => `${env.name}=${env.value ?? (env.valueFrom === undefined ? '' : valueSource(env.valueFrom))}`,
      ),
    ),
    ...field(
      '    Mounts:',
      (container.volumeMounts ?? []).map(
        (mount) => `${mount.mountPath} from ${mount.name} (${mount.readOnly === true ? 'ro' : 'rw'})`,
      ),
    ),
  ];
}

/** Command and args one word a line, as kubectl prints them; nothing when unset. */
function listField(label: string, words: readonly string[] | undefined): string[] {
  return words === undefined || words.length === 0 ? [] : [`    ${label}:`, ...words.map((word) => `      ${word}`)];
}

/** `<set from configMapKeyRef>`: where a variable's value comes from, without reading it. */
function valueSource(valueFrom: Readonly<Record<string, unknown>>): string {
  return `<set from ${Object.keys(valueFrom).join(', ')}>`;
}

/** The volume's source (`configMap`, `emptyDir`, …): the member other than its name. */
function volumeType(volume: Readonly<Record<string, unknown>>): string {
  return Object.keys(volume).find((key) => key !== 'name') ?? 'unknown';
}
