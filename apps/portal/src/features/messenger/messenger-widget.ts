/**
 * What the portal asks of a messenger widget, whatever the provider. Every call is anonymous:
 * no e-mail, name or user id is ever passed (see docs/configuration.md, Messenger widget).
 */
export interface MessengerWidget {
  /** Loads the provider's script (once) and shows the widget for an anonymous visitor. */
  boot(): void;
  /** Tells a booted widget that the page changed (an in-app navigation). */
  update(): void;
  /** Removes the widget from the page and ends the visitor's widget session. */
  shutdown(): void;
}

export interface MessengerWidgetOptions {
  appId: string;
  scriptUrl: string;
}
