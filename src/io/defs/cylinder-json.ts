/** The scene JSON form of the cylinder: its definition's form plus `center` and `rotation`. */
import { placedSceneForm, registerSceneForm } from "../scene-forms.js";

registerSceneForm(placedSceneForm("cylinder", "cylinder", "center", true));
