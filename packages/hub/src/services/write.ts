import { recordAudit, type AuditEntry } from "../audit/log.js";
import { notifyChange } from "../db/changes.js";
import type { Database, Queryable } from "../db/types.js";
import type { ChangeEvent, ChangeEvents } from "./changes.js";

/** What every service write needs: the database, and the bus its change is announced on. */
export interface WriteContext {
	db: Database;
	changes: ChangeEvents;
}

/** What the work of a write returns: its value, and, when it changed something, the audit and change. */
export interface Written<T> {
	value: T;
	/** Recorded in the same transaction. */
	audit?: AuditEntry | readonly AuditEntry[] | undefined;
	/** Announced to the other hub processes in the transaction, and on this process's bus after commit. */
	change?: ChangeEvent | readonly ChangeEvent[] | undefined;
}

/**
 * The one way services write: `work` runs in a transaction (the service has checked the rights), its
 * audit entries and the cross-process notification are written in the same transaction, and after the
 * commit its change is emitted once on the in-process bus. A write that throws records and announces
 * nothing.
 */
export async function write<T>(
	context: WriteContext,
	work: (tx: Queryable) => Promise<Written<T>>,
): Promise<T> {
	const written = await context.db.transaction(async (tx) => {
		const outcome = await work(tx);
		if (outcome.audit !== undefined) await recordAudit(tx, outcome.audit);
		for (const change of changesOf(outcome)) await notifyChange(tx, context.changes.encode(change));
		return outcome;
	});
	for (const change of changesOf(written)) context.changes.emit(change);
	return written.value;
}

function changesOf(written: Written<unknown>): readonly ChangeEvent[] {
	const change = written.change;
	if (change === undefined) return [];
	return Array.isArray(change) ? (change as readonly ChangeEvent[]) : [change as ChangeEvent];
}
