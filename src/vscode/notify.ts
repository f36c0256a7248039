// The extension's notifications (info, warning, error), the only way it shows one: VS Code makes every
// `[label](command:…)`, `(https://…)` or `(file:…)` of a notification's text a link, and opens a command link with
// commands allowed, so a dataset's file name, a model's summary or an endpoint's error text could plant a click that
// runs any command (a terminal's sendSequence among them). Every message goes through `inertNotification` first. The
// one notice with a link of ours (the no-key notice, llmClients.ts) is a progress notification built apart.
import * as vscode from 'vscode';
import { inertNotification } from './notificationText';

export { inertNotification };

export const notify = {
  info: ((message: string, ...rest: never[]) => vscode.window.showInformationMessage(inertNotification(message), ...rest)) as typeof vscode.window.showInformationMessage,
  warn: ((message: string, ...rest: never[]) => vscode.window.showWarningMessage(inertNotification(message), ...rest)) as typeof vscode.window.showWarningMessage,
  error: ((message: string, ...rest: never[]) => vscode.window.showErrorMessage(inertNotification(message), ...rest)) as typeof vscode.window.showErrorMessage,
};
