import { describe, expect, it, vi } from 'vitest';
import { warnDeprecated } from '../../src/internal/deprecated.js';

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
