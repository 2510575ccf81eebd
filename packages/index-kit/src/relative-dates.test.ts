import { describe, expect, it } from 'vitest';
import { relativeDateTerms } from './relative-dates';

/** Tuesday 18 April 2023, 7:34 pm. */
const AT = '2023-04-18T19:34:00.000Z';

describe('relative dates', () => {
  it('gives the day of yesterday, today and tomorrow', () => {
    expect(relativeDateTerms('I went to a support group yesterday.', AT)).toBe('17 april 2023');
    expect(relativeDateTerms('Last night was fun, and tonight too', AT)).toBe(
      '17 april 2023 18 april 2023',
    );
    expect(relativeDateTerms('Tomorrow we ship.', AT)).toBe('19 april 2023');
  });

  it('gives the month of a week, a weekend or a month, and the year of a year', () => {
    expect(relativeDateTerms('We went to a convention last month.', AT)).toBe('march 2023');
    expect(relativeDateTerms('next month', AT)).toBe('may 2023');
    expect(relativeDateTerms('this past weekend', '2023-04-03T10:00:00.000Z')).toBe('march 2023');
    expect(relativeDateTerms('last year', AT)).toBe('2022');
    expect(relativeDateTerms('last month', '2023-01-05T10:00:00.000Z')).toBe('december 2022');
  });

  it('gives the day of a named weekday before or after', () => {
    expect(relativeDateTerms('Last Friday I finally took my kids out', AT)).toBe('14 april 2023');
    expect(relativeDateTerms('last tuesday', AT)).toBe('11 april 2023');
    expect(relativeDateTerms('next Monday', AT)).toBe('24 april 2023');
  });

  it('counts back days, weeks, months and years ago', () => {
    expect(relativeDateTerms('3 days ago', AT)).toBe('15 april 2023');
    expect(relativeDateTerms('a couple of weeks ago', AT)).toBe('april 2023');
    expect(relativeDateTerms('a few months ago', AT)).toBe('january 2023');
    expect(relativeDateTerms('two years ago', AT)).toBe('2021');
  });

  it('gives nothing without a date to read against, or without an expression', () => {
    expect(relativeDateTerms('yesterday', undefined)).toBe('');
    expect(relativeDateTerms('yesterday', 'not a date')).toBe('');
    expect(relativeDateTerms('The deploy runs on Fridays.', AT)).toBe('');
  });
});
