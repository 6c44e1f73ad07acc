import { HubError } from "../errors.js";

/**
 * Reading query parameters the way real clients send them: repeated keys (`filter=a&filter=b`), the
 * bracket form (`expand[]=a`), booleans as `true`/`false` (httpx) or `1`/`0`. Unknown parameters are
 * ignored (clients send parameters a hub may not know); a known parameter with an invalid value is an
 * Invalid error (400) with a message naming it.
 */

/**
 * Query parameters as sent. `Name` is the parameters a route reads (the API contract's names, e.g.
 * `keyof ModelListParameters`): the helpers below accept no other name, so a parser cannot read a
 * parameter the contract does not declare.
 */
export type RawQuery<Name extends string = string> = { [K in Name | `${Name}[]`]?: string | string[] };

/** The longest value accepted for any parameter. */
const MAX_VALUE_LENGTH = 1024;

function invalid(name: string, why: string): HubError {
	return new HubError("Invalid", `invalid value for query parameter '${name}': ${why}`);
}

function values<Name extends string>(query: RawQuery<Name>, name: Name): string[] {
	const out: string[] = [];
	for (const key of [name, `${name}[]` as const]) {
		const value = query[key];
		if (value === undefined) continue;
		for (const item of Array.isArray(value) ? value : [value]) {
			if (item.length > MAX_VALUE_LENGTH) throw invalid(name, `longer than ${MAX_VALUE_LENGTH} characters`);
			if (item.includes("\u0000")) throw invalid(name, "contains a NUL character");
			out.push(item);
		}
	}
	return out;
}

/** A parameter given at most once (empty counts as absent). */
export function one<Name extends string>(query: RawQuery<Name>, name: NoInfer<Name>): string | undefined {
	const all = values(query, name);
	if (all.length > 1) throw new HubError("Invalid", `query parameter '${name}' must be given once`);
	const value = all[0];
	return value === "" ? undefined : value;
}

/** A list parameter: repeated keys, the `name[]` form, and comma-separated values, empty items dropped. */
export function many<Name extends string>(
	query: RawQuery<Name>,
	name: NoInfer<Name>,
	max: number,
	comma = false,
): string[] {
	const all = values(query, name).flatMap((value) => (comma ? value.split(",") : [value]));
	const items = all.map((value) => value.trim()).filter((value) => value !== "");
	if (items.length > max) throw invalid(name, `at most ${max} values`);
	return items;
}

const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

/** A boolean parameter (`true`/`false`, `1`/`0`, case-insensitive; a bare `?full` is true). */
export function flag<Name extends string>(query: RawQuery<Name>, name: NoInfer<Name>): boolean | undefined {
	const all = values(query, name);
	if (all.length === 0) return undefined;
	if (all.length > 1) throw new HubError("Invalid", `query parameter '${name}' must be given once`);
	const value = (all[0] as string).toLowerCase();
	if (value === "" || TRUE.has(value)) return true;
	if (FALSE.has(value)) return false;
	throw invalid(name, "must be true or false");
}

/**
 * A whole number parameter, at least `min`; values above `cap` are capped (paging parameters), so the
 * only refusals are values that are not whole numbers (`1e309`, `Infinity`, `-1`, `1.5`).
 */
export function whole<Name extends string>(
	query: RawQuery<Name>,
	name: NoInfer<Name>,
	min: number,
	cap: number,
): number | undefined {
	const value = one(query, name);
	if (value === undefined) return undefined;
	if (!/^\d{1,30}$/.test(value)) throw invalid(name, `must be a whole number of at least ${min}`);
	const number = Number(value);
	if (number < min) throw invalid(name, `must be at least ${min}`);
	return Math.min(number, cap);
}

/** A parameter with one of a fixed set of values. */
export function choice<T extends string, Name extends string>(
	query: RawQuery<Name>,
	name: NoInfer<Name>,
	allowed: readonly T[],
): T | undefined {
	const value = one(query, name);
	if (value === undefined) return undefined;
	if (!(allowed as readonly string[]).includes(value))
		throw invalid(name, `must be one of ${allowed.join(", ")}`);
	return value as T;
}

/** A parameter matching a pattern. */
export function matching<Name extends string>(
	query: RawQuery<Name>,
	name: NoInfer<Name>,
	pattern: RegExp,
	what: string,
): string | undefined {
	const value = one(query, name);
	if (value === undefined) return undefined;
	if (!pattern.test(value)) throw invalid(name, what);
	return value;
}

export { invalid as invalidParameter };
