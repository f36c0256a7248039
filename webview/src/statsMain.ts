// Entry point of the statistics and adjudication panels (bundled to dist/stats.js; its CSS to dist/stats.css).
import './stats.css';
import { CurationPanelApp } from './statsApp';
import { vscodeApi } from './vscodeApi';

const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
root.id = 'app';
new CurationPanelApp(vscodeApi(), root, document.body.dataset.taskId === 'adjudication' ? 'adjudication' : 'stats');
