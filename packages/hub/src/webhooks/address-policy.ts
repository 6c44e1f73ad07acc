import { BlockList, isIP } from "node:net";

/**
 * Where webhooks may deliver (MODELHUB_WEBHOOK_ALLOWED_HOSTS): a comma-separated list of
 *
 * - `public`: any host whose every address is a public one (not loopback, private, link-local, shared,
 *   multicast, documentation or other special-purpose ranges, IANA's registries), the default;
 * - an IP address or a CIDR range (`127.0.0.1`, `10.1.0.0/16`, `fd00::/8`): those addresses, even private;
 * - a host name (`ci.internal`) or a suffix (`*.corp.example`): that name, whatever it resolves to.
 *
 * An empty list allows nothing. A delivery's host is resolved and every address checked (a name with one
 * private address among public ones is refused), then the connection goes to a checked address, so a
 * second DNS answer cannot send it elsewhere (rebinding); redirects are never followed. Pure functions
 * over the parsed list; resolution is the caller's.
 */
export interface AddressPolicy {
	/** `public` is listed. */
	publicAddresses: boolean;
	/** Listed addresses and ranges. */
	addresses: BlockList;
	/** Listed host names (lower case) and suffixes (`.corp.example`). */
	names: Set<string>;
	suffixes: string[];
	/** The setting as given, for messages. */
	text: string;
}

/** IANA special-purpose ranges (RFC 6890 and its updates): never "public". */
const SPECIAL_V4 = [
	"0.0.0.0/8",
	"10.0.0.0/8",
	"100.64.0.0/10",
	"127.0.0.0/8",
	"169.254.0.0/16",
	"172.16.0.0/12",
	"192.0.0.0/24",
	"192.0.2.0/24",
	"192.88.99.0/24",
	"192.168.0.0/16",
	"198.18.0.0/15",
	"198.51.100.0/24",
	"203.0.113.0/24",
	"224.0.0.0/4",
	"240.0.0.0/4",
];
const SPECIAL_V6 = [
	"::/128",
	"::1/128",
	// IPv4-translated addresses reach IPv4 hosts: never public (IPv4-mapped ones are judged as their
	// IPv4 address, see mappedIPv4: a ::ffff:0:0/96 rule here would match every IPv4 address, as Node's
	// BlockList applies mapped rules to IPv4 checks).
	"64:ff9b::/96",
	"64:ff9b:1::/48",
	"100::/64",
	"2001::/23",
	"2001:db8::/32",
	"2002::/16",
	"fc00::/7",
	"fe80::/10",
	"fec0::/10",
	"ff00::/8",
];

const SPECIAL = new BlockList();
for (const range of SPECIAL_V4) {
	const [network, bits] = range.split("/") as [string, string];
	SPECIAL.addSubnet(network, Number(bits), "ipv4");
}
for (const range of SPECIAL_V6) {
	const [network, bits] = range.split("/") as [string, string];
	SPECIAL.addSubnet(network, Number(bits), "ipv6");
}

function family(address: string): "ipv4" | "ipv6" | undefined {
	const kind = isIP(address);
	return kind === 4 ? "ipv4" : kind === 6 ? "ipv6" : undefined;
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d` or `::ffff:hhhh:hhhh`) reaches. */
export function mappedIPv4(address: string): string | undefined {
	const text = address.toLowerCase().replace(/^\[|\]$/g, "");
	const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
	if (dotted !== undefined) return isIP(dotted) === 4 ? dotted : undefined;
	const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(text);
	if (!hex) return undefined;
	const high = parseInt(hex[1] as string, 16);
	const low = parseInt(hex[2] as string, 16);
	return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether an IP address is a public one (none of the special-purpose ranges). */
export function isPublicAddress(address: string): boolean {
	const kind = family(address);
	if (kind === undefined) return false;
	const mapped = kind === "ipv6" ? mappedIPv4(address) : undefined;
	if (mapped !== undefined) return isPublicAddress(mapped);
	return !SPECIAL.check(address, kind);
}

const HOST_NAME = /^(\*\.)?[a-z0-9]([a-z0-9-]{0,62})(\.[a-z0-9]([a-z0-9-]{0,62}))*\.?$/;

/** Parses the setting; an entry that is none of the forms above is an error naming it. */
export function parseAddressPolicy(text: string): AddressPolicy {
	const policy: AddressPolicy = {
		publicAddresses: false,
		addresses: new BlockList(),
		names: new Set(),
		suffixes: [],
		text,
	};
	for (const raw of text.split(",")) {
		const entry = raw.trim().toLowerCase();
		if (entry === "") continue;
		if (entry === "public") {
			policy.publicAddresses = true;
			continue;
		}
		const slash = entry.indexOf("/");
		const address = slash < 0 ? entry : entry.slice(0, slash);
		const kind = family(address.replace(/^\[|\]$/g, ""));
		if (kind !== undefined) {
			const bare = address.replace(/^\[|\]$/g, "");
			if (slash < 0) {
				policy.addresses.addAddress(bare, kind);
				continue;
			}
			const bits = Number(entry.slice(slash + 1));
			const max = kind === "ipv4" ? 32 : 128;
			if (!Number.isInteger(bits) || bits < 0 || bits > max) {
				throw new Error(`MODELHUB_WEBHOOK_ALLOWED_HOSTS: '${raw.trim()}' is not a valid CIDR range`);
			}
			policy.addresses.addSubnet(bare, bits, kind);
			continue;
		}
		if (slash < 0 && HOST_NAME.test(entry)) {
			const name = entry.replace(/\.$/, "");
			if (name.startsWith("*.")) policy.suffixes.push(name.slice(1));
			else policy.names.add(name);
			continue;
		}
		throw new Error(
			`MODELHUB_WEBHOOK_ALLOWED_HOSTS: '${raw.trim()}' is none of 'public', an IP address, a CIDR range, a host name or '*.suffix'`,
		);
	}
	return policy;
}

/** Whether the host name itself is listed (then whatever it resolves to is allowed). */
export function nameAllowed(policy: AddressPolicy, host: string): boolean {
	const name = host.toLowerCase().replace(/\.$/, "");
	return policy.names.has(name) || policy.suffixes.some((suffix) => name.endsWith(suffix));
}

/** Why an address may not be delivered to, or undefined when it may. */
export function addressRefusal(policy: AddressPolicy, address: string): string | undefined {
	const kind = family(address);
	if (kind === undefined) return `${address} is not an IP address`;
	if (policy.addresses.check(address, kind)) return undefined;
	// An IPv4-mapped IPv6 address is judged as the IPv4 address it reaches.
	const mapped = kind === "ipv6" ? mappedIPv4(address) : undefined;
	if (mapped !== undefined) return addressRefusal(policy, mapped);
	if (policy.publicAddresses && isPublicAddress(address)) return undefined;
	return `${address} is not allowed by MODELHUB_WEBHOOK_ALLOWED_HOSTS (${policy.text === "" ? "empty: webhooks deliver nowhere" : policy.text})`;
}
