export * from "./http";
export * from "./models";
export * from "./catalogue";
