const ISO_DATE =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function daysInMonth(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Reads an ISO 8601 date (`2024-09-25`, `2024-09-25T17:00:57.000Z`, with an offset, …) that exists on
 * the calendar and lies between 1970 and 9999, as PostgreSQL will also accept it. JavaScript's
 * Date.parse alone is not enough: it rolls `2024-02-30` over to March instead of refusing it.
 */
export function parseIsoDate(text: string): Date | undefined {
	if (text.length > 40) return undefined;
	const match = ISO_DATE.exec(text);
	if (!match) return undefined;
	const [, y, m, d, hh = "0", mm = "0", ss = "0"] = match;
	const year = Number(y);
	const month = Number(m);
	const day = Number(d);
	if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
	if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return undefined;
	const time = Date.parse(text.includes(" ") ? text.replace(" ", "T") : text);
	if (Number.isNaN(time)) return undefined;
	const date = new Date(time);
	const utcYear = date.getUTCFullYear();
	if (utcYear < 1970 || utcYear > 9999) return undefined;
	return date;
}
