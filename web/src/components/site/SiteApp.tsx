// The static site's page (npm run site): the live page's stage — timeline, verdict, code,
// explanation, the library scorecard — fed by shipped recordings instead of a socket, with
// the scenarios in teaching order beside it. Each scenario's recordings are fetched when it
// is opened. Where the live page has Run, the site has Replay.
import { useEffect, useState } from 'react';
import type { LoadedSite } from '../../app/site.js';
import { useShortcuts } from '../../app/useShortcuts.js';
import { useStore } from '../../store/index.js';
import { useDocumentLook } from '../App.js';
import { PageNotice, PageTitle, ScorecardMain } from '../PageParts.js';
import { ShortcutsDialog } from '../present/ShortcutsDialog.js';
import { ScorecardToggle } from '../scorecard/ScorecardButtons.js';
import { SiteChapters } from './SiteChapters.js';
import { SiteStage } from './SiteStage.js';

export function SiteApp({ loading }: { loading: Promise<LoadedSite> }) {
  const [site, setSite] = useState<LoadedSite | null>(null);
  const scorecard = useStore((s) => s.scorecard);
  useShortcuts();
  useDocumentLook();
  useEffect(() => {
    let live = true;
    void loading.then((loaded) => live && setSite(loaded));
    return () => {
      live = false;
    };
  }, [loading]);
  const chapters = site?.ok ? site.chapters : [];
  return (
    <>
      <header className="app-header site-header">
        <PageTitle />
        <div className="header-right">
          <ScorecardToggle />
          <p className="site-note">recorded runs: no server needed</p>
        </div>
      </header>
      <PageNotice />
      {scorecard ? (
        <ScorecardMain />
      ) : (
        <main className="app-main site-main">
          <SiteStage chapters={chapters} />
          <SiteChapters chapters={chapters} loaded={site !== null} />
        </main>
      )}
      <ShortcutsDialog />
    </>
  );
}
