/**
 * The expression language of resourcesPolicy (OpenKruise pkg/util/calculator): `+ - * /`,
 * parentheses, unary minus, `max(a, b)` and `min(a, b)`, numbers (`0.5`, `1e3`, `50%` = 0.5),
 * quantities (`50m`, `128Mi`) and one variable (`cpu` or `memory`). A number meeting a quantity becomes
 * milli-units; a quantity times or divided by a number is computed on its milli value in float64 and
 * truncated, as Go's SetMilli(int64(float64(MilliValue()) * n)) does. Two quantities may not be
 * multiplied, nor anything divided by a quantity; a negative result is an error.
 */
import { addQuantities, compareQuantities, milliQuantity, milliValue, parseQuantity } from './quantity.ts';
import type { Quantity } from './quantity.ts';

/** A value: a plain number or a quantity. */
export type CalcValue =
  { readonly kind: 'number'; readonly value: number } | { readonly kind: 'quantity'; readonly value: Quantity };

type Token =
  | { readonly type: 'number' | 'quantity' | 'ident'; readonly text: string }
  | { readonly type: 'op'; readonly text: string }
  | { readonly type: 'end'; readonly text: '' };

const QUANTITY_UNITS = new Set(['m', 'k', 'M', 'G', 'T', 'P', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi']);
const isDigit = (char: string | undefined): boolean => char !== undefined && char >= '0' && char <= '9';
const isLetter = (char: string | undefined): boolean => char !== undefined && /^[A-Za-z]$/.test(char);

/** What the lexer has seen of a number so far. */
interface NumberState {
  dot: boolean;
  exponent: boolean;
  percent: boolean;
  /** Right after the exponent's e: a sign may follow. */
  exponentStart: boolean;
}

type Step = 'continue' | 'end' | 'unit';
const stepOf = (taken: boolean): Step => (taken ? 'continue' : 'end');

/** The number characters other than digits: whether each continues the number (and is recorded). */
const NUMBER_CHARS: Readonly<Record<string, (seen: NumberState, afterExponentStart: boolean) => Step>> = {
  '.': (seen) => stepOf(takeOnce(seen, 'dot', !seen.exponent && !seen.percent)),
  e: (seen) => exponentStep(seen),
  E: (seen) => exponentStep(seen),
  '+': (_seen, afterExponentStart) => stepOf(afterExponentStart),
  '-': (_seen, afterExponentStart) => stepOf(afterExponentStart),
  '%': (seen) => stepOf(takeOnce(seen, 'percent', true)),
};

function exponentStep(seen: NumberState): Step {
  seen.exponentStart = !seen.exponent && !seen.percent;
  return stepOf(takeOnce(seen, 'exponent', !seen.percent));
}

/**
 * What `char` does to the number, as the lexer's readNumber: continues it (and is recorded), ends it,
 * or starts its unit (letters, but not right after the exponent's e).
 */
function numberStep(char: string | undefined, seen: NumberState): Step {
  const afterExponentStart = seen.exponentStart;
  seen.exponentStart = false;
  if (isDigit(char)) {
    return 'continue';
  }
  const handler = char === undefined ? undefined : NUMBER_CHARS[char];
  if (handler !== undefined) {
    return handler(seen, afterExponentStart);
  }
  return isLetter(char) && !afterExponentStart ? 'unit' : 'end';
}

/** Marks `flag` when it is not yet set and `allowed`; whether it was. */
function takeOnce(seen: NumberState, flag: 'dot' | 'exponent' | 'percent', allowed: boolean): boolean {
  if (seen[flag] || !allowed) {
    return false;
  }
  seen[flag] = true;
  return true;
}

/** The lexer's number: digits, one dot, one exponent with its sign, one percent, then a unit's letters. */
function readNumber(input: string, start: number): number {
  let position = start;
  const seen: NumberState = { dot: false, exponent: false, percent: false, exponentStart: false };
  for (;;) {
    const step = numberStep(input[position], seen);
    if (step === 'end') {
      return position;
    }
    if (step === 'unit') {
      while (isLetter(input[position])) {
        position += 1;
      }
      return position;
    }
    position += 1;
  }
}

/** OpenKruise's isQuantity: a numeric part, then exactly one of the allowed units. */
function isQuantityToken(text: string): boolean {
  const end = /[^0-9.eE+-]/.exec(text)?.index ?? -1;
  return end > 0 && QUANTITY_UNITS.has(text.slice(end));
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  while (position < input.length) {
    const char = input[position] ?? '';
    if (/\s/.test(char)) {
      position += 1;
    } else if (isDigit(char) || char === '.') {
      const end = readNumber(input, position);
      const text = input.slice(position, end);
      tokens.push({ type: isQuantityToken(text) ? 'quantity' : 'number', text });
      position = end;
    } else if (isLetter(char)) {
      const text = /^[A-Za-z0-9_]+/.exec(input.slice(position))?.[0] ?? char;
      tokens.push({ type: 'ident', text });
      position += text.length;
    } else {
      tokens.push({ type: 'op', text: char });
      position += 1;
    }
  }
  tokens.push({ type: 'end', text: '' });
  return tokens;
}

/** strconv.ParseFloat, whose error OpenKruise ignores (the value is then 0); `%` divides by 100. */
function parseNumber(text: string): number {
  const percent = text.endsWith('%');
  const value = Number(percent ? text.slice(0, -1) : text);
  const number = Number.isNaN(value) || (percent ? text.length === 1 : text === '') ? 0 : value;
  return percent ? number / 100 : number;
}

const asQuantity = (value: CalcValue): Quantity =>
  value.kind === 'quantity' ? value.value : milliQuantity(BigInt(Math.trunc(value.value * 1000)));
const quantity = (value: Quantity): CalcValue => ({ kind: 'quantity', value });
const number = (value: number): CalcValue => ({ kind: 'number', value });
const negate = (value: Quantity): Quantity => ({ ...value, nanos: -value.nanos });
/** SetMilli(int64(f(float64(MilliValue())))): the format is kept. */
const scaleMilli = (value: Quantity, scale: (milli: number) => number): Quantity => ({
  ...milliQuantity(BigInt(Math.trunc(scale(Number(milliValue(value)))))),
  format: value.format,
});

function add(left: CalcValue, right: CalcValue): CalcValue {
  return left.kind === 'number' && right.kind === 'number'
    ? number(left.value + right.value)
    : quantity(addQuantities(asQuantity(left), asQuantity(right)));
}

function subtract(left: CalcValue, right: CalcValue): CalcValue {
  return left.kind === 'number' && right.kind === 'number'
    ? number(left.value - right.value)
    : quantity(addQuantities(asQuantity(left), negate(asQuantity(right))));
}

function multiply(left: CalcValue, right: CalcValue): CalcValue {
  if (left.kind === 'number' && right.kind === 'number') {
    return number(left.value * right.value);
  }
  if (left.kind === 'quantity' && right.kind === 'number') {
    return quantity(scaleMilli(left.value, (milli) => milli * right.value));
  }
  if (right.kind === 'quantity' && left.kind === 'number') {
    return quantity(scaleMilli(right.value, (milli) => milli * left.value));
  }
  throw new Error('multiplication of two quantities');
}

function divide(left: CalcValue, right: CalcValue): CalcValue {
  if (right.kind === 'quantity') {
    throw new Error('division by quantity');
  }
  if (right.value === 0) {
    throw new Error('division by zero');
  }
  return left.kind === 'quantity'
    ? quantity(scaleMilli(left.value, (milli) => milli / right.value))
    : number(left.value / right.value);
}

/** max or min of two values: two numbers stay a number, otherwise the chosen operand as a quantity (ties: the left one). */
function extreme(name: 'max' | 'min', left: CalcValue, right: CalcValue): CalcValue {
  const keepLeft = (order: number): boolean => (name === 'max' ? order >= 0 : order <= 0);
  if (left.kind === 'number' && right.kind === 'number') {
    return number(keepLeft(left.value - right.value) ? left.value : right.value);
  }
  const [a, b] = [asQuantity(left), asQuantity(right)];
  return quantity(keepLeft(compareQuantities(a, b)) ? a : b);
}

/** A recursive-descent parser of OpenKruise's grammar (expr: term {+|- term}; term: factor {*|/ factor}). */
class Parser {
  #position = 0;
  readonly #tokens: readonly Token[];
  readonly #variables: ReadonlyMap<string, CalcValue>;

  constructor(tokens: readonly Token[], variables: ReadonlyMap<string, CalcValue>) {
    this.#tokens = tokens;
    this.#variables = variables;
  }

  parse(): CalcValue {
    const value = this.#expression();
    if (this.#peek().type !== 'end') {
      throw this.#syntaxError();
    }
    return value;
  }

  #peek(): Token {
    return this.#tokens[this.#position] ?? { type: 'end', text: '' };
  }

  #next(): Token {
    const token = this.#peek();
    this.#position += 1;
    return token;
  }

  #isOp(text: string): boolean {
    const token = this.#peek();
    return token.type === 'op' && token.text === text;
  }

  #expect(text: string): void {
    if (!this.#isOp(text)) {
      throw this.#syntaxError();
    }
    this.#position += 1;
  }

  #syntaxError(): Error {
    return new Error(`parse error: syntax error at ${JSON.stringify(this.#peek().text || 'end of expression')}`);
  }

  #expression(): CalcValue {
    let value = this.#term();
    while (this.#isOp('+') || this.#isOp('-')) {
      const op = this.#next().text;
      const right = this.#term();
      value = op === '+' ? add(value, right) : subtract(value, right);
    }
    return value;
  }

  #term(): CalcValue {
    let value = this.#factor();
    while (this.#isOp('*') || this.#isOp('/')) {
      const op = this.#next().text;
      const right = this.#factor();
      value = op === '*' ? multiply(value, right) : divide(value, right);
    }
    return value;
  }

  #factor(): CalcValue {
    const token = this.#next();
    if (token.type === 'number') {
      return number(parseNumber(token.text));
    }
    if (token.type === 'quantity') {
      return quantity(parseQuantity(token.text));
    }
    if (token.type === 'ident') {
      return this.#isOp('(') ? this.#call(token.text) : this.#variable(token.text);
    }
    if (token.type === 'op' && token.text === '(') {
      const value = this.#expression();
      this.#expect(')');
      return value;
    }
    if (token.type === 'op' && token.text === '-') {
      const value = this.#factor();
      return value.kind === 'quantity' ? quantity(negate(value.value)) : number(-value.value);
    }
    this.#position -= 1;
    throw this.#syntaxError();
  }

  #variable(name: string): CalcValue {
    const value = this.#variables.get(name.toLowerCase());
    if (value === undefined) {
      throw new Error(`undefined variable: ${name}`);
    }
    return value;
  }

  #call(name: string): CalcValue {
    this.#expect('(');
    const args = [this.#expression()];
    if (this.#isOp(',')) {
      this.#position += 1;
      args.push(this.#expression());
    }
    this.#expect(')');
    const lower = name.toLowerCase();
    if (lower !== 'max' && lower !== 'min') {
      throw new Error(`unknown function: ${name}`);
    }
    const [left, right] = args;
    if (left === undefined || right === undefined) {
      throw new Error(`${lower} function requires exactly 2 arguments, got ${String(args.length)}`);
    }
    return extreme(lower, left, right);
  }
}

/** Evaluates an expression with its variables (lower-case names); throws on a syntax error, an invalid operation or a negative result. */
export function evaluate(expression: string, variables: ReadonlyMap<string, CalcValue>): CalcValue {
  const result = new Parser(tokenize(expression), variables).parse();
  const negative = result.kind === 'quantity' ? result.value.nanos < 0n : result.value < 0;
  if (negative) {
    throw new Error('calculation result is negative');
  }
  return result;
}
