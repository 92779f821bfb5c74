// Imported for its effect: the test mail peers greet at once (smtp-greeting.mjs).
export {};
