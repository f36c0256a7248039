// Entry point of the task view webview (bundled to dist/webview.js; its CSS to dist/webview.css).
import './styles.css';
import { App } from './app';
import { vscodeApi } from './vscodeApi';

performance.mark('specweave.boot');
const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
root.id = 'app';
root.dataset.testid = 'task-view';
new App(vscodeApi(), root);
