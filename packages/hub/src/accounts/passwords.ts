import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Passwords are hashed with scrypt (RFC 7914), Node's own binding of OpenSSL's implementation: a
 * memory-hard KDF (each hash needs 128·N·r bytes, 32 MiB at the default cost), kept up to date with
 * Node itself, with no native add-on to build. A stored hash names its parameters
 * (`scrypt$ln=15,r=8,p=1$<salt>$<hash>`, base64url), so raising the cost later keeps old hashes valid;
 * they are re-hashed at the next sign-in.
 */
export interface PasswordCost {
	/** log2 of scrypt's N (CPU/memory cost): 15 uses 32 MiB per hash. */
	log2N: number;
}

export const DEFAULT_PASSWORD_COST: PasswordCost = { log2N: 15 };
/** The bounds MODELHUB_PASSWORD_COST accepts: 16 MiB to 512 MiB per hash. */
export const PASSWORD_COST_BOUNDS = { min: 14, max: 19 } as const;

/** Password lengths accepted, in characters (NIST SP 800-63B: at least 8, allow 64 or more). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** Why a new password cannot be used, or undefined when it can. */
export function passwordProblem(password: unknown): string | undefined {
	if (typeof password !== "string") return "password must be a string";
	const length = [...password].length;
	if (length < PASSWORD_MIN_LENGTH) return `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
	if (length > PASSWORD_MAX_LENGTH) return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
	return undefined;
}

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
	const N = 2 ** log2N;
	return new Promise((resolve, reject) =>
		scrypt(
			password.normalize("NFKC"),
			salt,
			KEY_BYTES,
			// maxmem: what this very hash needs and a little more (Node's default, 32 MiB, is too little).
			{ N, r, p, maxmem: 129 * N * r + 1024 * 1024 },
			(error, key) => (error ? reject(error) : resolve(key)),
		),
	);
}

/** Bounds the hashes computed at once: each holds 128·N·r bytes while it runs. */
class Gate {
	private running = 0;
	private readonly waiting: Array<() => void> = [];
	constructor(private readonly limit: number) {}
	async run<T>(work: () => Promise<T>): Promise<T> {
		if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
		this.running++;
		try {
			return await work();
		} finally {
			this.running--;
			this.waiting.shift()?.();
		}
	}
}

/** Node's thread pool has 4 threads by default: at most that many hashes run (and hold memory) at once. */
const gate = new Gate(4);

export async function hashPassword(
	password: string,
	cost: PasswordCost = DEFAULT_PASSWORD_COST,
): Promise<string> {
	const salt = randomBytes(SALT_BYTES);
	const key = await gate.run(() => derive(password, salt, cost.log2N, BLOCK_SIZE, PARALLELISM));
	return `scrypt$ln=${cost.log2N},r=${BLOCK_SIZE},p=${PARALLELISM}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

const STORED =
	/^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]{8,64})\$([A-Za-z0-9_-]{16,128})$/;

export interface PasswordCheck {
	ok: boolean;
	/** The hash was made with another cost than today's: store a new one. */
	rehash: boolean;
}

/** Checks a password against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword(
	password: string,
	stored: string,
	cost: PasswordCost = DEFAULT_PASSWORD_COST,
): Promise<PasswordCheck> {
	const match = STORED.exec(stored);
	if (!match) return { ok: false, rehash: false };
	const [log2N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
	if (log2N < 10 || log2N > 20 || r < 1 || r > 16 || p < 1 || p > 4) return { ok: false, rehash: false };
	const expected = Buffer.from(match[5] as string, "base64url");
	const key = await gate.run(() =>
		derive(password, Buffer.from(match[4] as string, "base64url"), log2N, r, p),
	);
	const ok = key.length === expected.length && timingSafeEqual(key, expected);
	return { ok, rehash: ok && (log2N !== cost.log2N || r !== BLOCK_SIZE || p !== PARALLELISM) };
}

/**
 * Spends the time of a check when there is no hash to check against (an unknown user), so the answer's
 * timing does not tell which user names exist.
 */
export async function spendPasswordCheck(
	password: string,
	cost: PasswordCost = DEFAULT_PASSWORD_COST,
): Promise<void> {
	await gate.run(() => derive(password, Buffer.alloc(SALT_BYTES), cost.log2N, BLOCK_SIZE, PARALLELISM));
}
