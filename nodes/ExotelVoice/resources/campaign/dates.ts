import { trimmed, zoneOffsetMs } from '../../../shared/rules/validation';

/** The offset of `timeZone` from UTC at the instant `utcMs`, in minutes. */
const offsetMinutes = (timeZone: string, utcMs: number) => Math.round(zoneOffsetMs(timeZone, utcMs) / 60_000);

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An RFC 3339 date-time for the schedule. A value with an offset (or Z) is kept as given; a value
 * without one (what the date picker gives) is read in the workflow's time zone and gets its offset.
 */
export function toRfc3339(value: unknown, timeZone: string): string | undefined {
	const given = trimmed(value);
	if (!given) return undefined;
	const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(given);
	if (!match) return undefined;
	const [, y, mo, d, h, mi, s = '00', fraction = '', zone] = match;
	const wall = `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}`;
	if (zone) {
		const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
		return `${wall}${offset}`;
	}
	const guess = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
	if (!Number.isFinite(guess)) return undefined;
	let offset = offsetMinutes(timeZone, guess);
	offset = offsetMinutes(timeZone, guess - offset * 60_000);
	const sign = offset < 0 ? '-' : '+';
	const abs = Math.abs(offset);
	return `${wall}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
