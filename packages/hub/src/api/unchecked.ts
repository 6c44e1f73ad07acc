/**
 * A request body's fields as sent, named by the API contract's type `T`, before they are checked: a
 * parser typed with it cannot read a field the contract does not declare. For the hub's parsers only
 * (not part of the published contract).
 */
export type Unchecked<T> = { [K in keyof T]?: unknown };
