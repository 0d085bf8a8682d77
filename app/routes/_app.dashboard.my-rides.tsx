// /dashboard/my-rides is the same screen as /dashboard/rides.
export { action, default, loader, meta } from "./_app.dashboard.rides";
