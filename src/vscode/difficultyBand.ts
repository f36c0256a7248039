// The solve-rate band of the Candidates tree's mixed-success filter and of the statistics panel:
// `specweave.difficulty.band`, read once per change of it. A value that does not parse falls back to the default
// band, and the user is told once per value, in words naming the setting.
import * as vscode from 'vscode';
import type { SolveBand } from '../core/solver/difficulty';
import { BAND_SETTING, readDifficultyBand } from './settings';

export class DifficultyBand implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  /** The band changed (the setting was edited). */
  readonly onDidChange = this.emitter.event;
  private value: { band: SolveBand; problem?: string };
  private said: string | undefined;
  private readonly sub: vscode.Disposable;

  constructor(private readonly warn: (message: string) => void) {
    this.value = this.read();
    this.sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(BAND_SETTING)) return;
      this.value = this.read();
      this.emitter.fire();
    });
  }

  get band(): SolveBand {
    return this.value.band;
  }

  /** Why the setting was not used, when it was not. */
  get problem(): string | undefined {
    return this.value.problem;
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }

  private read(): { band: SolveBand; problem?: string } {
    const v = readDifficultyBand();
    if (v.problem && v.problem !== this.said) this.warn(`SpecWeave: ${v.problem}`);
    this.said = v.problem;
    return v;
  }
}
