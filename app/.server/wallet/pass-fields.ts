import { CARD_FIELD_KEYS, type CardDetails, fieldTexts } from "~/lib/card-fields";
import { CARD_FIELD_RULES } from "../profiles/card-fields";

type PassField = { key: string; label: string; value: string };

/**
 * The card's details on the Apple Wallet pass, by section, as each field's
 * `applePass` says; only what the card shows to anyone is given here.
 */
export function applePassFields(details: Partial<CardDetails>) {
  const sections: Record<"secondaryFields" | "auxiliaryFields" | "backFields", PassField[]> = {
    secondaryFields: [],
    auxiliaryFields: [],
    backFields: [],
  };
  for (const key of CARD_FIELD_KEYS) {
    const rule = CARD_FIELD_RULES[key].applePass;
    const value = fieldTexts(details[key]).join("\n");
    if (rule && value) sections[rule.section].push({ key: rule.key, label: rule.label, value });
  }
  return sections;
}

/** The card's details on the Google Wallet pass: the subheader and the text modules, as each field's `googlePass` says. */
export function googlePassDetails(details: Partial<CardDetails>) {
  let subheader: string | null = null;
  const modules: { id: string; header: string; body: string }[] = [];
  for (const key of CARD_FIELD_KEYS) {
    const rule = CARD_FIELD_RULES[key].googlePass;
    const value = fieldTexts(details[key]).join("\n");
    if (!rule || !value) continue;
    if (rule.place === "subheader") subheader ??= value;
    else modules.push({ id: rule.id, header: rule.header, body: value });
  }
  return { subheader, modules };
}
