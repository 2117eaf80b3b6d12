/** Just enough of a .proto parser for generated.proto: each message's fields by number. */

export interface ProtoField {
  readonly name: string;
  readonly type: string;
  readonly repeated: boolean;
}

/** Messages by name (nested messages are not used by go-to-protobuf); map fields count as repeated. */
export function parseProtoMessages(text: string): Map<string, Map<number, ProtoField>> {
  const messages = new Map<string, Map<number, ProtoField>>();
  const withoutComments = text.replaceAll(/\/\/.*$/gm, '');
  for (const match of withoutComments.matchAll(/^message (\w+) \{([^}]*)\}/gm)) {
    const [, name = '', body = ''] = match;
    const fields = new Map<number, ProtoField>();
    for (const field of body.matchAll(/^\s*(optional|repeated)?\s*(map<[^>]+>|[\w.]+)\s+(\w+)\s*=\s*(\d+)/gm)) {
      const [, label, type = '', fieldName = '', number = '0'] = field;
      fields.set(Number(number), { name: fieldName, type, repeated: label === 'repeated' || type.startsWith('map<') });
    }
    messages.set(name, fields);
  }
  return messages;
}
