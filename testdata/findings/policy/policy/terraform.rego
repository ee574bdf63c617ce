package main

# Every terraform_data the plan creates says what replaces it.
deny contains msg if {
	rc := input.resource_changes[_]
	rc.type == "terraform_data"
	rc.change.actions[_] == "create"
	rc.change.after.triggers_replace == null
	msg := sprintf("%s is created without triggers_replace", [rc.address])
}

# Modules' resources are reviewed by their owners.
warn contains msg if {
	rc := input.resource_changes[_]
	rc.module_address
	rc.change.actions[_] == "create"
	msg := sprintf("%s is created in %s: ask its owners", [rc.address, rc.module_address])
}
