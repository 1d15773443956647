/** The scene JSON form of the cone: its definition's form plus `center` and `rotation`. */
import { placedSceneForm, registerSceneForm } from "../scene-forms.js";

registerSceneForm(placedSceneForm("cone", "cone", "center", true));
