import { describe, expect, it } from 'vitest';

import { tabulate } from './tabulate.ts';

describe('tabulate, as Go text/tabwriter with padding 2', () => {
  it.each([
    [
      'pads each column to its widest cell plus two',
      ['REVISION\tCHANGE-CAUSE', '1\t<none>', '10\tdeploy'],
      ['REVISION  CHANGE-CAUSE', '1         <none>', '10        deploy'],
    ],
    [
      'never pads the last cell of a line',
      ['a\tb\tlong last cell', 'aaa\tbbbb\tc'],
      ['a    b     long last cell', 'aaa  bbbb  c'],
    ],
    [
      'aligns a column only over consecutive lines that have it',
      ['  A:\t1', '  Long label:\t2', 'break', '  B:\t3'],
      ['  A:           1', '  Long label:  2', 'break', '  B:  3'],
    ],
    ['keeps lines without tabs as they are', ['Pod Template:', ''], ['Pod Template:', '']],
    ['pads an empty cell too', ['\tx', 'ab\ty'], ['    x', 'ab  y']],
  ])('%s', (_name, lines, expected) => {
    expect(tabulate(lines)).toBe(expected.join('\n'));
  });
});
