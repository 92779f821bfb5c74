// The test mail peers (end-to-end servers, vitest) greet at once. smtp-server holds its greeting back 100 ms
// to catch clients that talk before it (a spam defence); the app waits for the greeting before it
// writes, as every SMTP client does, so the delay caught nothing here. A run sends a few hundred
// mails (each e-mail code log-in is one), and each waited those 100 ms: about 105 ms a mail before,
// 5–10 ms after. Imported for its effect, before any SMTPServer is made.
import { SMTPConnection } from "smtp-server/lib/smtp-connection.js";

SMTPConnection.prototype.init = function greetAtOnce() {
  this._setListeners(() => this.connectionReady());
};
