import { describe, expect, it, vi } from 'vitest';
import { fromAlias, warnDeprecated } from '../../src/internal/deprecated.js';

describe('warnDeprecated', () => {
  it('warns once per old name, naming the new one and the release that removes the old', () => {
    const warn = vi.fn();
    warnDeprecated('test.oldOption', 'test.newOption', warn);
    warnDeprecated('test.oldOption', 'test.newOption', warn);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/test\.oldOption is deprecated.*2\.0.*test\.newOption/);
    warnDeprecated('test.otherOption', 'test.newOption', warn);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('writes to console.warn when given nowhere else', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    warnDeprecated('test.consoleOption', 'test.newOption');
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();
  });
});

describe('fromAlias', () => {
  const names = { name: 'newOption', oldName: 'oldOption', label: 'test.fromAlias oldOption' };
  const refuse = (message: string) => new RangeError(message);

  it('takes the new name, the old one with a warning, and refuses both', () => {
    const warn = vi.fn();
    expect(fromAlias(1, undefined, names, refuse, warn)).toEqual({ value: 1, name: 'newOption' });
    expect(fromAlias(undefined, undefined, names, refuse, warn)).toEqual({
      value: undefined,
      name: 'newOption',
    });
    expect(warn).not.toHaveBeenCalled();
    expect(fromAlias(undefined, 2, names, refuse, warn)).toEqual({ value: 2, name: 'oldOption' });
    expect(warn).toHaveBeenCalledOnce();
    expect(() => fromAlias(1, 2, names, refuse, warn)).toThrow(
      new RangeError(
        'give newOption or oldOption (its deprecated alias), not both; they are the same option',
      ),
    );
  });
});
