import { guardConsoleErrors } from "../support/console";

guardConsoleErrors();
