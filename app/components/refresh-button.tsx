import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";

/**
 * Reloads the page's data on request. Only a refresh asked for here shows on
 * the button: the page also reloads by itself when a realtime event concerns
 * it, and the button must not flicker, or turn disabled under the pointer,
 * each time that happens.
 */
export function RefreshButton() {
  const revalidator = useRevalidator();
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void revalidator.revalidate().finally(() => setRefreshing(false));
  };
  return (
    <Button variant="secondary" onClick={refresh} disabled={refreshing}>
      <RefreshCw aria-hidden className={cn("size-4", refreshing && "animate-spin")} />
      {refreshing ? "Refreshing..." : "Refresh"}
    </Button>
  );
}
