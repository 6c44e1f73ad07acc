/** Formatting helpers shared by pages; pure and locale-stable (en-US) so tests and screenshots agree. */

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const full = new Intl.NumberFormat("en-US");

/** 1234 → "1.2K", 2_500_000 → "2.5M". */
export function formatCount(value: number | undefined): string {
	if (value === undefined || !Number.isFinite(value)) return "–";
	return compact.format(value);
}

export function formatExactCount(value: number | undefined): string {
	if (value === undefined || !Number.isFinite(value)) return "–";
	return full.format(value);
}

const dateFormat = new Intl.DateTimeFormat("en-US", {
	year: "numeric",
	month: "short",
	day: "numeric",
	timeZone: "UTC",
});

/** An ISO date as "Mar 4, 2025"; "–" when missing or invalid. */
export function formatDate(iso: string | undefined): string {
	if (!iso) return "–";
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? "–" : dateFormat.format(date);
}

/** "3 days ago"-style text relative to `now`. */
export function formatRelative(iso: string | undefined, now: Date = new Date()): string {
	if (!iso) return "–";
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return "–";
	const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
	const units: Array<[number, string]> = [
		[60 * 60 * 24 * 365, "year"],
		[60 * 60 * 24 * 30, "month"],
		[60 * 60 * 24, "day"],
		[60 * 60, "hour"],
		[60, "minute"],
	];
	for (const [size, unit] of units) {
		const count = Math.floor(Math.abs(seconds) / size);
		if (count >= 1) {
			const text = `${count} ${unit}${count === 1 ? "" : "s"}`;
			return seconds >= 0 ? `${text} ago` : `in ${text}`;
		}
	}
	return "just now";
}

/** A score in [0, 1] as a percentage with one decimal. */
export function formatScore(score: number): string {
	if (!Number.isFinite(score)) return "–";
	return `${(Math.max(0, Math.min(1, score)) * 100).toFixed(1)}%`;
}

const bytesFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** 1536 → "1.5 kB", 8_030_000_000 → "8 GB" (powers of 1000, as file managers show sizes). */
export function formatBytes(bytes: number | undefined): string {
	if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return "–";
	const units = ["B", "kB", "MB", "GB", "TB"];
	let value = bytes;
	let unit = 0;
	while (value >= 1000 && unit < units.length - 1) {
		value /= 1000;
		unit++;
	}
	return `${unit === 0 ? value : bytesFormat.format(value)} ${units[unit]}`;
}

/** A parameter count as the public hub shows it: 8_030_261_248 → "8.03B", 82_000_000 → "82M". */
export function formatParameters(count: number | undefined): string | undefined {
	if (count === undefined || !Number.isFinite(count) || count <= 0) return undefined;
	const units: Array<[number, string]> = [
		[1e12, "T"],
		[1e9, "B"],
		[1e6, "M"],
		[1e3, "K"],
	];
	for (const [size, suffix] of units) {
		if (count >= size) {
			const value = count / size;
			return `${value >= 100 ? Math.round(value) : Number(value.toPrecision(3))}${suffix}`;
		}
	}
	return String(count);
}
