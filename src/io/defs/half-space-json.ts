/** The scene JSON form of the half-space: its definition's form (`normal`, `offset`), unplaced. */
import { placedSceneForm, registerSceneForm } from "../scene-forms.js";

registerSceneForm(placedSceneForm("halfspace", "halfspace", "none", false));
