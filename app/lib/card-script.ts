import { THEME_COOKIE } from "./theme";

/**
 * The whole script of a card page for visitors who are not signed in
 * (docs/decisions/018-reused-cards-and-batched-views.md): the page is complete
 * as the server sends it, so instead of the app's JavaScript (React, the
 * router: some 180 KB) it gets these few lines, inline under the page's
 * nonce. Their words are the page's, read from the buttons' data attributes.
 * They do what the card's buttons do in the app: Share (the share
 * sheet, else copy), Copy Link, Save Contact with its confirmation, Back, and
 * the theme switch's buttons without a reload. Each mirrors its component in
 * app/components/card-actions.tsx and app/components/theme-switch.tsx; the
 * visitor tests run the same steps on both.
 */
export const CARD_SCRIPT = `(function(){
var d=document,e=d.documentElement,FEEDBACK=2000;
function say(button,text){var label=button.querySelector("[aria-live]");if(!label)return;var before=button.getAttribute("data-label")||label.textContent;button.setAttribute("data-label",before);label.textContent=text;clearTimeout(button._t);button._t=setTimeout(function(){label.textContent=before},FEEDBACK);}
function copy(url,prompt){return navigator.clipboard.writeText(url).then(function(){return true},function(){window.prompt(prompt,url);return false});}
function dark(theme){return theme==="dark"||(theme!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches);}
function showTheme(theme){e.classList.toggle("dark",dark(theme));d.querySelectorAll("form[action='/theme'] button[name=theme]").forEach(function(b){b.setAttribute("aria-pressed",String(b.value===theme));});}
var theme;try{theme=localStorage.getItem("theme")}catch(x){}
theme=theme||(d.cookie.match(/(?:^|; )${THEME_COOKIE}=(light|dark|system)/)||[])[1]||"system";showTheme(theme);
matchMedia("(prefers-color-scheme: dark)").addEventListener("change",function(){if(theme==="system")showTheme(theme)});
d.addEventListener("submit",function(event){var form=event.target;if(form.getAttribute("action")!=="/theme"||!event.submitter)return;event.preventDefault();theme=event.submitter.value;try{localStorage.setItem("theme",theme)}catch(x){}d.cookie="${THEME_COOKIE}="+theme+"; Path=/; Max-Age=31536000; SameSite=Lax";showTheme(theme);});
var back=history.length>1&&d.referrer!=="";
if(back)d.querySelectorAll("[data-back]").forEach(function(b){b.hidden=false;b.querySelectorAll("[data-back-place]").forEach(function(p){p.remove()})});
d.addEventListener("click",function(event){var t=event.target.closest("[data-share],[data-copy],[data-save],[data-back]");if(!t)return;
if(t.hasAttribute("data-back")){if(back){event.preventDefault();history.back()}return;}
if(t.hasAttribute("data-copy")){copy(t.getAttribute("data-copy"),t.getAttribute("data-prompt")).then(function(ok){if(ok)say(t,t.getAttribute("data-copied"))});return;}
if(t.hasAttribute("data-share")){var url=t.getAttribute("data-share");var fallback=function(){copy(url,t.getAttribute("data-prompt")).then(function(ok){if(ok)say(t,t.getAttribute("data-copied"))})};
if(typeof navigator.share==="function"){navigator.share({title:t.getAttribute("data-title")||"",url:url}).catch(function(error){if(error&&error.name!=="AbortError")fallback()})}else fallback();return;}
if(t.hasAttribute("data-save")){event.preventDefault();if(t.getAttribute("aria-disabled"))return;t.setAttribute("aria-disabled","true");var href=t.getAttribute("href");
fetch(href).then(function(response){if(!response.ok)throw new Error(String(response.status));return response.blob()}).then(function(blob){var url=URL.createObjectURL(blob),link=d.createElement("a");link.href=url;link.download=t.getAttribute("download");d.body.append(link);link.click();link.remove();setTimeout(function(){URL.revokeObjectURL(url)},10000);
window.alert(t.getAttribute("data-save"))},function(){window.alert(t.getAttribute("data-save-failed"))}).finally(function(){t.removeAttribute("aria-disabled")});}
});
d.querySelectorAll("img").forEach(function(img){function gone(){img.hidden=true}if(img.complete&&img.naturalWidth===0)gone();else img.addEventListener("error",gone)});
})();`;
