/*
 * Relative time, made absolute: a note written on 18 April 2023 that says
 * "last month" is about March 2023, one that says "yesterday" about 17
 * April 2023. `relativeDateTerms` gives those dates as words, indexed with
 * the note's derived terms, so "what did John attend in March 2023" finds
 * "we went to a convention last month". Read against the unit's creation
 * time; text without a date of its own gets none.
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY_MS = 86_400_000;
const COUNTS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  couple: 2,
  few: 3,
  several: 3,
};

/**
 * yesterday / today / tonight / tomorrow / last night / this morning;
 * last, past, this past, this or next week, weekend, month, year or
 * weekday; N days, weeks, months or years ago (a number, a word, "a couple
 * of", "a few").
 */
const RELATIVE =
  /\b(?:(yesterday|last night)|(today|tonight|this morning|this afternoon|this evening)|(tomorrow)|(last|past|this past|this|next) (week|weekend|month|year|sunday|monday|tuesday|wednesday|thursday|friday|saturday)|(\d{1,2}|an?|one|two|three|four|five|six|(?:a )?couple(?: of)?|(?:a )?few|several) (days?|weeks?|months?|years?) ago)\b/gi;

function dayTerms(at: Date): string {
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

function monthTerms(at: Date): string {
  return `${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

function monthsFrom(at: Date, months: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
}

/** `last friday` (the one before, a week back on a Friday), `this friday`, `next friday`. */
function weekdayTerms(now: Date, name: string, which: string): string {
  const target = WEEKDAYS.indexOf(name);
  const today = now.getUTCDay();
  let offset: number;
  if (which === 'next') offset = (target - today + 7) % 7 || 7;
  else if (which === 'this') offset = target >= today ? target - today : target - today + 7;
  else offset = -((today - target + 7) % 7 || 7);
  return dayTerms(new Date(now.getTime() + offset * DAY_MS));
}

/** `last month`, `next week`, `this year`, `past weekend`. */
function periodTerms(now: Date, which: string, unit: string): string {
  if (WEEKDAYS.includes(unit)) return weekdayTerms(now, unit, which);
  const sign = which === 'next' ? 1 : which === 'this' ? 0 : -1;
  if (unit === 'month') return monthTerms(monthsFrom(now, sign));
  if (unit === 'year') return String(now.getUTCFullYear() + sign);
  return monthTerms(new Date(now.getTime() + sign * 7 * DAY_MS));
}

/** `3 days ago`, `a few weeks ago`, `two years ago`. */
function agoTerms(now: Date, count: string, unit: string): string {
  const n = COUNTS[count.replace(/^a /, '').replace(/ of$/, '')] ?? Number(count);
  if (unit.startsWith('day')) return dayTerms(new Date(now.getTime() - n * DAY_MS));
  if (unit.startsWith('week')) return monthTerms(new Date(now.getTime() - n * 7 * DAY_MS));
  if (unit.startsWith('month')) return monthTerms(monthsFrom(now, -n));
  return String(now.getUTCFullYear() - n);
}

/**
 * The absolute dates of the relative time expressions in `text`, read
 * against `createdAt` (an ISO instant; UTC): a day as `17 april 2023`, a
 * week or a month as `march 2023`, a year as `2022`, space separated in
 * the order found. Empty without a valid `createdAt` or an expression.
 */
export function relativeDateTerms(text: string, createdAt: string | undefined): string {
  if (!createdAt) return '';
  const now = new Date(createdAt);
  if (Number.isNaN(now.getTime())) return '';
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(RELATIVE)) {
    const [, before, same, after, which, unit, count, agoUnit] = match;
    if (before) out.push(dayTerms(new Date(now.getTime() - DAY_MS)));
    else if (same) out.push(dayTerms(now));
    else if (after) out.push(dayTerms(new Date(now.getTime() + DAY_MS)));
    else if (which && unit) out.push(periodTerms(now, which, unit));
    else if (count && agoUnit) out.push(agoTerms(now, count, agoUnit));
  }
  return out.join(' ');
}
