// The services for a command of the CLI (a scenario's run, `racelab check`): found as
// findServices finds them, or, when none can be had, the reason on stderr.
import { findServices, type Services, type SetUrls } from './findServices.js';

/** The services, or null once it has said why they could not be reached (the command then exits 1). `setUrls`: probed beforehand. */
export async function servicesOrSay(setUrls?: Promise<SetUrls>): Promise<Services | null> {
  try {
    return await findServices(setUrls ? { setUrls } : {});
  } catch (error) {
    console.error(`racelab: could not reach the services: ${(error as Error).message}`);
    return null;
  }
}
