import { randomBytes } from "node:crypto";

/** A public identifier: 24 hex digits, like the public hub's object ids. */
export function newObjectId(): string {
	return randomBytes(12).toString("hex");
}
